import Foundation
import PipeLanguage

/// The jobs component: starts pipelines with `&`, reaps the ones that ended, cancels them
/// (`:cancel`, the end of a script). It owns the `JobTable`; what a job needs from the shell (the
/// runtime, the options, where output goes) comes with each call. Used from the main thread only.
///
/// ```swift
/// let jobs = JobControl()
/// jobs.start(pipeline, runtime: session.runtime, options: options, output: output)   // prints "[1] s | sink"
/// jobs.reap()   // [(id: 1, record)] once it ended
/// ```
final class JobControl {
    private(set) var table = JobTable()

    /// The running jobs, oldest first.
    var running: [Job] { table.jobs }
    var isEmpty: Bool { table.isEmpty }

    /// A running job.
    func job(_ id: Int) -> Job? { table.job(id) }

    /// Job `id`'s recorder, running or ended (while it is kept).
    func recorder(_ id: Int) -> RunRecorder? { table.recorder(id) }

    /// Job `id`'s text, running or ended (while it is kept).
    func text(_ id: Int) -> String? { table.text(id) }

    /// Starts a background job and prints its number.
    func start(_ pipeline: Pipeline, runtime: Runtime, options: ShellOptions, output: ShellOutput) {
        let id = table.makeID()
        var text = pipeline.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasSuffix("&") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        let wake = output.wake
        let style = Style(enabled: options.color)
        let recorder = RunRecorder(
            job: id, runtime: runtime, formatter: EventFormatter(format: options.format, style: style),
            sink: output.quiet ? nil : output.backgroundOut, onTerminal: { wake.signal() })
        if !output.quiet && options.format == .text {
            output.out.move(from: output.backgroundOut)
            output.out.write(style.dim("[\(id)] \(text)") + "\n")
            output.out.flush()
        }
        let run = pipeline.makeRun(trace: options.trace, record: options.recordsLanes, onEvent: recorder.handle)
        table.add(Job(id: id, text: text, recorder: recorder, cancellable: AnyCancellable(run)))
        Self.subscribe(run, offMain: output.interactive, label: "plumb.job.\(id)")
        // A script on the virtual clock: a job that iterates in a task (an async pipeline, `…
        // | values | map … &`) starts at this instant, as its publisher twin does: the task runs
        // to its first wait (subscribed, a value asked for) before the next statement.
        if !output.interactive, runtime.clock == .virtual { runtime.settleVirtualTime() }
    }

    /// How long the prompt waits for a job's start before it comes back anyway.
    static let startWait: DispatchTimeInterval = .milliseconds(100)

    /// Subscribes a job's run. At the REPL, on either clock, off the main thread, on a queue of
    /// the job's own: a synchronous source (`from 1...100000000`) emits every value inside
    /// `start()`, and the main thread belongs to the prompt. The prompt waits up to `startWait`
    /// for the start, so a quick one (almost all) is subscribed before the next line runs, as in
    /// a script (a pasted `s | sink &` then `s.send 1`); a long one goes on behind the prompt. The
    /// run exists before it starts, so `:cancel` stops it mid-emission. In a script, on the main
    /// thread, in order: its later statements (and its end, which cancels the jobs) must find the
    /// job subscribed, and a virtual-clock script stays repeatable.
    private static func subscribe(_ run: PipelineRun, offMain: Bool, label: String) {
        guard offMain else {
            run.start()
            return
        }
        let started = DispatchSemaphore(value: 0)
        DispatchQueue(label: label).async {
            run.start()
            started.signal()
        }
        _ = started.wait(timeout: .now() + startWait)
    }

    /// Forgets jobs that have ended.
    /// - Returns: each one's number and what it did, for the shell to count and bind (`_N`).
    func reap() -> [(id: Int, record: RunRecord)] {
        table.reap().map { ($0.id, $0.recorder.snapshot) }
    }

    /// Cancels one job and waits briefly for its cancellation to be reported.
    func cancel(_ job: Job) {
        if !job.recorder.isDone { job.recorder.cancel(job.cancellable, waitingOn: nil) }
    }

    /// Cancels every running job, waiting on `wake` for each to say so.
    func cancelAll(waitingOn wake: WakePipe) {
        // On the virtual clock, what is due at this instant happens before the end: a job's task
        // that a `send` resumed takes its value (and a completion waiting behind it) first.
        if let runtime = table.jobs.first?.recorder.runtime, runtime.clock == .virtual { runtime.settleVirtualTime() }
        for job in table.jobs where !job.recorder.isDone {
            job.recorder.cancel(job.cancellable, waitingOn: wake)
        }
    }

    /// `:jobs`'s lines: number, how long it has run, its values so far, its text.
    func listing(now: Duration) -> [String] {
        table.jobs.map { job in
            let record = job.recorder.snapshot
            let count = record.count == 1 ? "1 value" : "\(record.count) values"
            return "[\(job.id)] running  \(EventFormatter.durationText(now - job.recorder.start))  \(count)  \(job.text)"
        }
    }
}
