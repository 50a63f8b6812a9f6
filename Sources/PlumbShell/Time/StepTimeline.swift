import Foundation
import PipeLanguage
import PlumbDiagrams

/// Stepping in the room's browser: a pipeline driven from time 0 to its end one scheduled instant
/// at a time, as `:step` then `:next` drive it (the same `SteppedRun`), keeping at each pause what
/// `:step` prints there (the event lines and a line per stage's value, finish or failure) and the
/// diagram so far. The page's Step, Continue and time slider move through these pauses.
///
/// ```swift
/// let timeline = StepTimeline.record(pipeline, runtime: runtime)
/// timeline.pauses.map(\.nanoseconds)   // [0, 100_000_000, 200_000_000, …]
/// timeline.pauses[1].lines             // ["  +0.100s  │ [0] marble value \"a\"", …]
/// ```
struct StepTimeline {
    /// One pause: where the run stood and what it did on reaching it.
    struct Pause {
        /// The run's time, in ns since its subscription.
        let nanoseconds: Int64
        /// What `:step` prints on reaching it, without colour.
        let lines: [String]
        /// The diagram so far, its axis ending here.
        let diagram: MarbleRun
    }

    /// Why the pauses end where they do.
    enum Ending: String {
        /// The run finished, failed or completed.
        case ended
        /// Nothing is scheduled: the run waits for input that the room cannot send.
        case waiting
        /// The next instant is past the horizon (an endless timer).
        case horizon
        /// `maxPauses` pauses were kept.
        case pauseLimit
    }

    private(set) var pauses: [Pause] = []
    private(set) var ending = Ending.ended

    /// Steps `pipeline` through every instant, keeping at most `maxPauses` pauses and going no
    /// further than `horizon` ns of virtual time; a run not ended by then is cancelled.
    static func record(_ pipeline: Pipeline, runtime: Runtime, maxPauses: Int = 200, horizon: Int64 = 60_000_000_000) -> StepTimeline {
        let plain = Style(enabled: false)
        // Lines wait here until each pause takes them; the sink never writes itself.
        let lines = OutputSink(fd: -1, deferred: true)
        let run = SteppedRun(pipeline: pipeline, runtime: runtime, sink: lines, formatter: EventFormatter(format: .text, style: plain), style: plain)
        var timeline = StepTimeline()
        run.start()
        timeline.keep(run, lines: lines)
        while !run.isDone {
            if timeline.pauses.count >= maxPauses {
                timeline.ending = .pauseLimit
                break
            }
            guard let next = runtime.nextVirtualDeadline else {
                timeline.ending = .waiting
                break
            }
            if next &- run.recorder.startNanoseconds > horizon {
                timeline.ending = .horizon
                break
            }
            guard run.stepToNextInstant() else {
                timeline.ending = .waiting
                break
            }
            timeline.keep(run, lines: lines)
        }
        if !run.isDone { run.run.cancel() }
        return timeline
    }

    private mutating func keep(_ run: SteppedRun, lines: OutputSink) {
        let text = String(decoding: lines.take(), as: UTF8.self)
        let said = text.split(separator: "\n").map { String($0) }
        pauses.append(Pause(nanoseconds: run.elapsed, lines: said, diagram: run.diagramSoFar))
    }
}
