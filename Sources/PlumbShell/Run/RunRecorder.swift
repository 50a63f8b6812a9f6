import Foundation
import PipeLanguage
import Reactive
import Synchronization

/// How a pipeline ended.
enum Termination: Sendable, Equatable {
    case finished
    /// The failure's message, and its id when the language raised it (`E340`; nil for `fail "…"`).
    case failed(String, id: DiagnosticID? = nil)
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
    /// When a future's work began in this run (ns since the subscription), for `expect started`.
    var futureStarts: [Int64] = []
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
    /// When the run was made, on the runtime's clock (ns).
    /// The run's zero: when the recorder was made, moved to the `subscribed` event when it comes,
    /// so building the graph (milliseconds under load) is not counted as the run's time.
    private let origin: Atomic<Int64>
    /// The `subscribed` event came: until it does, every event (a lane's `^` as each stage is
    /// subscribed, on the way down to the terminal) is part of subscribing, and is at the run's 0.
    private let zeroed = Atomic<Bool>(false)
    var startNanoseconds: Int64 { origin.load(ordering: .relaxed) }
    var start: Duration { .nanoseconds(startNanoseconds) }
    /// Everything but the value path's own figures; `values` and `timeline` are filled from `log`
    /// when someone reads them (`snapshot`) and before a terminal event is added.
    /// Reactive's `Lock`, not `Mutex`: ThreadSanitizer cannot see `Mutex` on Linux (see `Lock`),
    /// and the event thread and readers meet here.
    private let record = Lock(RunRecord())
    /// The kept values, appended by the event thread without a lock (see `ValueLog`).
    private let log = ValueLog(capacity: RunRecorder.keptValues)
    /// Values seen, kept or not: raised only by the event thread (the language serialises events),
    /// with a load and a releasing store, so a value costs no locked instruction.
    private let valueCount = Atomic<Int>(0)
    /// The run ended (set under `record`'s lock); a value after it is neither counted nor printed.
    private let ended = Atomic<Bool>(false)
    private let onTerminal: @Sendable () -> Void

    /// - Parameters:
    ///   - sink: where event lines go; nil prints nothing (used by `plumb test`).
    ///   - onTerminal: called once, after the terminal event was printed (wakes the main thread).
    init(
        job: Int, runtime: Runtime, formatter: EventFormatter, sink: OutputSink?,
        onTerminal: @escaping @Sendable () -> Void
    ) {
        self.job = job
        self.runtime = runtime
        self.formatter = formatter
        self.sink = sink
        self.onTerminal = onTerminal
        self.origin = Atomic(runtime.nowNanoseconds())
    }

    /// True once the run ended and its last line was formatted into the sink.
    var isDone: Bool { record.withLock { $0.reported } }
    var snapshot: RunRecord {
        record.withLock { record in
            takeValues(into: &record)
            return record
        }
    }
    /// The record so far: a run still going lasts until now.
    var partialSnapshot: RunRecord {
        var record = snapshot
        if record.termination == nil { record.duration = runtime.now() - start }
        return record
    }

    /// Handles one event from `Pipeline.start`.
    func handle(_ event: PipelineEvent) {
        let now = runtime.nowNanoseconds()
        if case .subscribed = event {
            origin.store(now, ordering: .relaxed)
            zeroed.store(true, ordering: .relaxed)
        }
        // Events before `subscribed` were measured from the recorder's making, events after it
        // from the subscription: a stage's `^` stamped on the first scale would fall after the
        // values it caused (`(a^)` on the real clock, where building takes milliseconds).
        let ns = zeroed.load(ordering: .relaxed) ? Swift.max(0, now &- startNanoseconds) : 0
        switch event {
        case .value(let value): handleValue(value, next: false, ns: ns)
        case .next(let value): handleValue(value, next: true, ns: ns)
        default: handleOther(event, ns: ns)
        }
    }

    /// A value: the event almost every line is. Counted and kept without a lock (only this
    /// thread raises the count and appends to the log), printed through the formatter's
    /// stack-built line when it is an Int.
    private func handleValue(_ value: Value, next: Bool, ns: Int64) {
        if ended.load(ordering: .acquiring) { return }
        // The count first, then the entry: a reader that sees an entry sees it counted.
        valueCount.store(valueCount.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        _ = log.append(value, at: ns)
        guard sink != nil else { return }
        let job = self.job
        let formatter = self.formatter
        if case .int(let int) = value, formatter.writesIntValuesInPlace {
            // Through `self.sink` rather than a local binding: no retain and release per event.
            sink?.appendLine(maxBytes: EventFormatter.maxIntValueLine) { formatter.writeIntValue(int, next: next, job: job, nanoseconds: ns, at: $0) }
            return
        }
        let event: PipelineEvent = next ? .next(value) : .value(value)
        sink?.append { formatter.write(event, job: job, time: .nanoseconds(ns), summary: nil, into: &$0) }
    }

    /// Brings `record`'s values, timeline and count up to what the event thread has published;
    /// under `record`'s lock. The log is read before the count, so the count is never below the
    /// kept values.
    private func takeValues(into record: inout RunRecord) {
        log.take(into: &record.values, timeline: &record.timeline)
        record.count = valueCount.load(ordering: .acquiring)
    }

    private func handleOther(_ event: PipelineEvent, ns: Int64) {
        let time = Duration.nanoseconds(ns)
        let outcome = record.withLock { record -> (print: Bool, summary: RunSummary?) in
            if record.termination != nil {
                // A lane's end after the run's: an async lane whose cancelled task ended it when it
                // next ran (`awaitLaneEnds`). Drawn, not printed: the terminal line stays last.
                // It is drawn at the run's end, the instant the task was cancelled (or the lane
                // let go), not when the task got to run again.
                if case .lane(let lane, let signal) = event, event.isLaneEnd {
                    let end = record.duration.components
                    let endNanoseconds = end.seconds * 1_000_000_000 + end.attoseconds / 1_000_000_000
                    record.marbles.handle(lane: lane, signal, at: laneTime(Swift.min(ns, endNanoseconds)))
                }
                return (false, nil)
            }
            // The values so far go before a terminal entry in the timeline.
            takeValues(into: &record)
            switch event {
            case .value, .next: return (false, nil)  // values take handleValue
            case .finished:
                record.termination = .finished
                ended.store(true, ordering: .releasing)
                record.timeline.append((ns, .finished))
            case .failed(let error):
                record.termination = .failed(error.message, id: error.id)
                ended.store(true, ordering: .releasing)
                record.timeline.append((ns, .failed))
            case .cancelled:
                record.termination = .cancelled
                ended.store(true, ordering: .releasing)
            case .output(.note, _, let text) where OutputKind.isFutureStart(text):
                // Kept as values are: a future retried forever starts forever.
                if record.futureStarts.count < Self.keptValues { record.futureStarts.append(ns) }
                return (true, nil)
            case .subscribed, .trace, .output: return (true, nil)
            case .lane(let lane, let signal):
                record.marbles.handle(lane: lane, signal, at: laneTime(ns))
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
            // The terminal line (the one with a summary) is kept past a full deferred sink.
            sink.append(kept: outcome.summary != nil) { formatter.write(event, job: job, time: time, summary: outcome.summary, into: &$0) }
        }
        if outcome.summary != nil {
            record.withLock { $0.reported = true }
            onTerminal()
        }
    }

    /// On the real clock, events less than a millisecond apart are one instant in a diagram: a
    /// synchronous run's scheduling jitter is not behaviour to draw.
    private func laneTime(_ ns: Int64) -> Int64 {
        runtime.clock == .real ? (ns + 500_000) / 1_000_000 * 1_000_000 : ns
    }

    /// Marks the run cancelled if the pipeline did not report it itself (after a grace period).
    func forceCancelled() {
        handle(.cancelled)
    }
}

extension RunRecorder {
    /// Cancels `run`, gives the pipeline 100 ms to report `cancelled` itself, then records it as
    /// cancelled.
    ///
    /// - Parameter wake: the main thread's wake pipe: waits on it, driving virtual time
    ///   meanwhile (a foreground run, the jobs at the end of a script); nil polls every
    ///   millisecond (`:cancel N`).
    func cancel(_ run: any Cancellable, waitingOn wake: WakePipe?) {
        run.cancel()
        let deadline = DispatchTime.now().uptimeNanoseconds + 100_000_000
        while !isDone && DispatchTime.now().uptimeNanoseconds < deadline {
            guard let wake else {
                usleep(1000)
                continue
            }
            if runtime.clock == .virtual {
                runtime.driveVirtualTime { self.isDone }
                if isDone { break }
            }
            wake.wait(timeoutMilliseconds: 5)
        }
        if !isDone { forceCancelled() }
    }

    /// After the run's end, gives its async lanes that have not ended yet (a cancelled consuming
    /// task ends them when it next runs; a lane let go by `take` when its iterator is released)
    /// 200 ms to report their ends, so the diagram drawn next shows each one's cancel. The
    /// virtual clock runs what is due at this instant, without moving time: the ends are at the
    /// instant of the cancel.
    func awaitLaneEnds(of run: PipelineRun) {
        guard run.asyncLanesOpen else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + 200_000_000
        while run.asyncLanesOpen && DispatchTime.now().uptimeNanoseconds < deadline {
            if runtime.clock == .virtual {
                runtime.settleVirtualTime()
                if !run.asyncLanesOpen { break }
            }
            usleep(1000)
        }
    }
}
