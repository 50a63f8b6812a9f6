import PipeLanguage

/// A pipeline started with `&`.
struct Job {
    let id: Int
    let text: String
    let recorder: RunRecorder
    let cancellable: AnyCancellable
}

/// The background jobs of a session. Used from the main thread only; jobs finish on any thread,
/// which their recorders note, and the main thread reaps them. Numbers are never reused within a
/// session, so `[2]` in the output always means the same job.
struct JobTable {
    private(set) var jobs: [Job] = []
    private var nextID = 1

    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    mutating func add(_ job: Job) { jobs.append(job) }

    /// Removes and returns jobs whose pipelines have ended.
    @discardableResult
    mutating func reap() -> [Job] {
        let done = jobs.filter { $0.recorder.isDone }
        jobs.removeAll { $0.recorder.isDone }
        return done
    }

    func job(_ id: Int) -> Job? { jobs.first { $0.id == id } }

    var isEmpty: Bool { jobs.isEmpty }
}
