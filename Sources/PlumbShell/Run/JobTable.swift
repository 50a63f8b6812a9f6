import Foundation
import PipeLanguage

/// A pipeline started with `&`.
struct Job {
    let id: Int
    let text: String
    let recorder: RunRecorder
    let cancellable: AnyCancellable
}

/// The background jobs of a session, and the recordings of the latest ones that ended (for
/// `:marbles N` after job N ended). Used from the main thread only; jobs finish on any thread,
/// which their recorders note, and the main thread reaps them. Numbers are never reused within a
/// session, so `[2]` in the output always means the same job.
struct JobTable {
    /// How many ended jobs' recordings are kept.
    static let keptFinished = 50

    private(set) var jobs: [Job] = []
    private var nextID = 1
    /// Ended jobs' recorders by job number (the latest `keptFinished`).
    private var finished: [Int: RunRecorder] = [:]
    /// Ended jobs' texts, kept as long as their recorders (`:edit N`).
    private var finishedTexts: [Int: String] = [:]

    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    mutating func add(_ job: Job) { jobs.append(job) }

    /// Removes and returns jobs whose pipelines have ended, keeping their recordings.
    @discardableResult
    mutating func reap() -> [Job] {
        let done = jobs.filter { $0.recorder.isDone }
        jobs.removeAll { $0.recorder.isDone }
        for job in done {
            finished[job.id] = job.recorder
            finished[job.id - Self.keptFinished] = nil
            finishedTexts[job.id] = job.text
            finishedTexts[job.id - Self.keptFinished] = nil
        }
        return done
    }

    /// A running job.
    func job(_ id: Int) -> Job? { jobs.first { $0.id == id } }

    /// Job `id`'s recorder, running or ended (while it is kept).
    func recorder(_ id: Int) -> RunRecorder? { job(id)?.recorder ?? finished[id] }

    /// Job `id`'s text, running or ended (while it is kept).
    func text(_ id: Int) -> String? { job(id)?.text ?? finishedTexts[id] }

    var isEmpty: Bool { jobs.isEmpty }
}
