import Foundation
import PipeLanguage
import Synchronization

/// How a pipeline ended.
enum Termination: Sendable, Equatable {
    case finished
    case failed(String)
    case cancelled
}

/// What one run of a pipeline did, kept for `expect` and for the exit code.
struct RunRecord: Sendable {
    /// The values, up to `RunRecorder.keptValues` of them (`count` has the true number).
    var values: [Value] = []
    var count = 0
    var termination: Termination?
    var duration: Duration = .zero
    /// Values and the completion with their times since the subscription (ns), for `expect
    /// marbles`; as many as `values` keeps.
    var timeline: [(time: Int64, token: MarbleNotation.Token)] = []
    /// The marble diagram's recording (filled when the run records lanes).
    var marbles = MarbleRecording()
    /// The terminal event's line is in the sink (set just after it was appended, so whoever sees
    /// the run done and prints the sink prints that line too, before the next prompt).
    var reported = false
    var valuesTruncated: Bool { count > values.count }
}

/// Receives one pipeline's events (on any thread, serialised by the language), formats each into
/// the output sink with its time since subscription, and records what happened.
final class RunRecorder: Sendable {
    /// Values beyond this many are counted but not kept, so a million-element run stays small.
    static let keptValues = 100_000

    let job: Int
    let runtime: Runtime
    let formatter: EventFormatter
    let sink: OutputSink?
    let start: Duration
    private let record = Mutex(RunRecord())
    private let onTerminal: @Sendable () -> Void

    /// - Parameters:
    ///   - sink: where event lines go; nil prints nothing (used by `plumb test`).
    ///   - onTerminal: called once, after the terminal event was printed (wakes the main thread).
    init(job: Int, runtime: Runtime, formatter: EventFormatter, sink: OutputSink?,
         onTerminal: @escaping @Sendable () -> Void) {
        self.job = job
        self.runtime = runtime
        self.formatter = formatter
        self.sink = sink
        self.onTerminal = onTerminal
        self.start = runtime.now()
    }

    /// True once the run ended and its last line was formatted into the sink.
    var isDone: Bool { record.withLock { $0.reported } }
    var snapshot: RunRecord { record.withLock { $0 } }

    /// Handles one event from `Pipeline.start`.
    func handle(_ event: PipelineEvent) {
        let time = runtime.now() - start
        let outcome = record.withLock { record -> (print: Bool, summary: RunSummary?) in
            if record.termination != nil { return (false, nil) }
            switch event {
            case .value(let value), .next(let value):
                record.count += 1
                if record.values.count < Self.keptValues {
                    record.values.append(value)
                    record.timeline.append((EventFormatter.nanoseconds(time), .value(value)))
                }
                return (true, nil)
            case .finished:
                record.termination = .finished
                record.timeline.append((EventFormatter.nanoseconds(time), .finished))
            case .failed(let error):
                record.termination = .failed(error.message)
                record.timeline.append((EventFormatter.nanoseconds(time), .failed))
            case .cancelled: record.termination = .cancelled
            case .subscribed, .trace, .output: return (true, nil)
            case .lane(let lane, let signal):
                // On the real clock, events less than a millisecond apart are one instant in a
                // diagram: a synchronous run's scheduling jitter is not behaviour to draw.
                let ns = EventFormatter.nanoseconds(time)
                record.marbles.handle(lane: lane, signal, at: runtime.clock == .real ? (ns + 500_000) / 1_000_000 * 1_000_000 : ns)
                // Drawn as a diagram, not line by line; jsonl writes each for other tools.
                return (formatter.format == .jsonl, nil)
            }
            record.duration = time
            return (true, RunSummary(count: record.count, duration: time))
        }
        guard outcome.print else { return }
        if let sink {
            let job = self.job
            let formatter = self.formatter
            sink.append { formatter.write(event, job: job, time: time, summary: outcome.summary, into: &$0) }
        }
        if outcome.summary != nil {
            record.withLock { $0.reported = true }
            onTerminal()
        }
    }

    /// Marks the run cancelled if the pipeline did not report it itself (after a grace period).
    func forceCancelled() {
        handle(.cancelled)
    }
}
