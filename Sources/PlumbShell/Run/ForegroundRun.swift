import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// One pipeline run in the foreground: started, watched for Ctrl-C, its output flushed and (on a
/// terminal) its diagram drawn live, until it ends, Ctrl-C cancels it, or (virtual clock) nothing
/// more can happen. Made per run by the statement runner; it keeps no state between runs.
///
/// Ctrl-C is watched, and output flushed, on another thread for the whole run
/// (`InterruptWatcher`), because a synchronous source keeps this thread inside `start()` until
/// it is exhausted or cancelled.
///
/// ```swift
/// let run = ForegroundRun(runtime: session.runtime, out: out, wake: WakePipe())
/// let (record, outcome) = run.perform(pipeline)   // record.values, .ended
/// ```
struct ForegroundRun {
    /// How the run came to an end.
    enum Outcome: Equatable {
        /// The pipeline finished, failed or cancelled itself (or the virtual clock ran out).
        case ended
        /// Ctrl-C cancelled it.
        case interrupted
        /// A write to standard output failed and the run was cancelled.
        case outputFailed
    }

    let runtime: Runtime
    /// Event lines.
    let out: OutputSink
    /// False prints no event lines (`plumb test`).
    var printsEvents = true
    /// Background jobs' output, moved to `out` while the run goes (the REPL defers it).
    var backgroundOut: OutputSink?
    let wake: WakePipe
    var formatter = EventFormatter(format: .text, style: Style(enabled: false))
    var trace = false
    var recordLanes = false
    /// Scripts catch SIGINT only for the run; the REPL's handler stays installed.
    var catchingSignal = true
    /// Draws the diagram under the event lines while the run goes (a terminal, real clock), with
    /// the lines of the run so far.
    var live: (diagram: LiveDiagram, lines: (RunRecord) -> [String])?
    /// How far a virtual run goes while only an endless timer keeps it going (`--until`).
    var until: Int64 = Runtime.defaultHorizonNanoseconds
    /// Says why a virtual run was stopped: nothing more can happen, or the horizon.
    var onNote: ((String) -> Void)?

    /// Runs `pipeline` until it ends; returns what it did, how it ended, and the horizon's note
    /// when an endless timer was stopped there.
    func perform(_ pipeline: Pipeline) -> (record: RunRecord, outcome: Outcome, stopNote: String?) {
        let wake = self.wake
        let live = self.live?.diagram
        let liveLines = self.live?.lines ?? { _ in [] }
        let out = self.out
        let recorder = RunRecorder(
            job: 0, runtime: runtime, formatter: formatter, sink: printsEvents ? (live?.sink ?? out) : nil,
            onTerminal: { wake.signal() })
        let run = pipeline.makeRun(trace: trace, record: recordLanes, onEvent: recorder.handle)
        let watcher = InterruptWatcher(
            catchingSignal: catchingSignal,
            onTick: {
                out.flush()
                live?.drainBeforeDrawn()
                // A synchronous source keeps the main thread inside `start()`: stop it from here.
                if StandardStreams.outputFailed {
                    run.cancel()
                    wake.signal()
                }
            }
        ) {
            run.cancel()
            wake.signal()
        }
        var stopNote: String?
        run.start()
        switch runtime.clock {
        case .virtual:
            var lastFlush = DispatchTime.now().uptimeNanoseconds
            let horizon = runtime.driveVirtualTime(horizonNanoseconds: until) {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastFlush >= OutputSink.flushInterval {
                    lastFlush = now
                    out.flush()
                }
                return recorder.isDone || watcher.interrupted || StandardStreams.outputFailed
            }
            // An endless timer past the horizon: stop, and say so (a failing `expect` says it too).
            if horizon {
                let note = Self.horizonNote(pipeline.text, until: until)
                stopNote = note
                out.flush()
                onNote?(note)
                recorder.cancel(run, waitingOn: wake)
            }
            if !recorder.isDone {
                if !watcher.interrupted && !StandardStreams.outputFailed {
                    out.flush()
                    onNote?("nothing more can happen on the virtual clock; cancelling the pipeline")
                }
                recorder.cancel(run, waitingOn: wake)
            }
        case .real:
            while !recorder.isDone {
                wake.wait(timeoutMilliseconds: 50)
                out.flush()
                if let backgroundOut { out.move(from: backgroundOut) }
                // At most ~20 redraws a second: one per wake.
                if let live, !recorder.isDone { live.redraw(liveLines(recorder.partialSnapshot)) }
                if (watcher.interrupted || StandardStreams.outputFailed) && !recorder.isDone {
                    recorder.cancel(run, waitingOn: wake)
                }
            }
        }
        if recordLanes { recorder.awaitLaneEnds(of: run) }
        // Written while Ctrl-C is still watched: the write may wait on a terminal that does not
        // read, and a further Ctrl-C must still end plumb then.
        live?.finish()
        out.flush()
        watcher.stop()
        let outcome: Outcome = watcher.interrupted ? .interrupted : StandardStreams.outputFailed ? .outputFailed : .ended
        return (recorder.snapshot, outcome, stopNote)
    }
}
