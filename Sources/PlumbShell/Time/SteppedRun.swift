import Foundation
import PipeLanguage
import PlumbDiagrams
import Synchronization

/// What `:break` stops at: a stage (by its index in the diagram) emitting a value, finishing or
/// failing.
struct Breakpoint: Sendable, Equatable, CustomStringConvertible {
    /// Which signal stops the run.
    enum Signal: String, Sendable, CaseIterable {
        case value, finished, failed
    }

    let stage: Int
    let label: String
    /// nil: any of them.
    let signal: Signal?

    var description: String {
        "[\(stage)] \(label) " + (signal.map { "on \($0.rawValue)" } ?? "on a value, a finish or a failure")
    }

    func matches(stage: Int, _ laneSignal: LaneSignal) -> Bool {
        guard stage == self.stage else { return false }
        switch laneSignal {
        case .value: return signal == nil || signal == .value
        case .finished: return signal == nil || signal == .finished
        case .failed: return signal == nil || signal == .failed
        case .opened, .subscribed, .cancelled, .pulled: return false
        }
    }
}

/// Watches a stepped run's `.lane` events as they happen: which lane is which stage, a line per
/// stage's value, finish or failure (so each step shows what every stage did, not only the
/// output), and the first breakpoint hit since the shell last looked.
final class StageWatch: Sendable {
    /// A stage of the pipeline: its index (the diagram's `[N]`) and its text.
    struct Stage: Sendable, Equatable {
        let index: Int
        let label: String
        /// The operator's or source's name: the text's first word.
        var name: String { String(label.prefix { $0 != " " }) }
    }

    private struct State {
        var stages: [Int: Stage] = [:]
        var order: [Stage] = []
        var subscriptions: [Int: Int] = [:]
        var breakpoints: [Breakpoint] = []
        var hit: String?
        /// Values, finishes and failures seen (each step tells whether it showed any).
        var signals = 0
    }

    private let state = Mutex(State())
    /// Where the stage lines go; nil prints none (`plumb test`, or `:trace on` shows them already).
    private let sink: OutputSink?
    private let style: Style
    private let clock: @Sendable () -> Int64

    /// - Parameters:
    ///   - sink: Where stage lines go (nil: none).
    ///   - clock: The run's time now, in ns since its subscription.
    init(sink: OutputSink?, style: Style, clock: @escaping @Sendable () -> Int64) {
        self.sink = sink
        self.style = style
        self.clock = clock
    }

    /// The stages in order (known once the run has started: lanes open as the graph is built).
    var stages: [Stage] { state.withLock { $0.order } }

    var breakpoints: [Breakpoint] {
        get { state.withLock { $0.breakpoints } }
        set { state.withLock { $0.breakpoints = newValue } }
    }

    /// The breakpoint hit since the last call, described with its time and value; clears it.
    func takeHit() -> String? {
        state.withLock { state in
            defer { state.hit = nil }
            return state.hit
        }
    }

    var hasHit: Bool { state.withLock { $0.hit != nil } }

    /// How many values, finishes and failures the stages emitted so far.
    var signals: Int { state.withLock { $0.signals } }

    /// Handles one event of the run (before the recorder does).
    func observe(_ event: PipelineEvent) {
        guard case .lane(let lane, let signal) = event else { return }
        let ns = clock()
        let line = state.withLock { state -> String? in
            if case .opened(let label, let stage, let parent) = signal {
                if parent == nil {
                    let s = Stage(index: stage, label: label)
                    state.stages[lane] = s
                    state.order.append(s)
                }
                return nil
            }
            guard let stage = state.stages[lane] else { return nil }
            let text: String
            switch signal {
            case .value(let value): text = "value \(value.description)"
            case .finished: text = "finished"
            case .failed(let error): text = "\(error.heading): \(TerminalText.escaped(error.message))"
            case .subscribed:
                state.subscriptions[lane, default: 0] += 1
                // The first subscription is the run's start; another is an attempt (`retry`).
                guard state.subscriptions[lane, default: 0] > 1 else { return nil }
                text = "subscribed again"
            case .cancelled, .opened, .pulled: return nil
            }
            state.signals += 1
            if state.hit == nil, state.breakpoints.contains(where: { $0.matches(stage: stage.index, signal) }) {
                state.hit = "[\(stage.index)] \(stage.label): \(text) at \(EventFormatter.durationText(.nanoseconds(ns)))"
            }
            return "  " + EventFormatter.relativeTime(.nanoseconds(ns)) + "  " + style.cyan("│ [\(stage.index)] \(stage.name) \(text)") + "\n"
        }
        if let line, let sink { sink.write(line) }
    }
}

/// A foreground run held paused on the virtual clock (`:step`): started at time 0, moved one
/// instant (`:next`), a stretch (`:advance`) or to its end (`:continue`) at a time, fed by sends
/// while it waits. The statement runner keeps at most one and drives it from the main thread.
///
/// ```swift
/// let stepped = SteppedRun(pipeline: pipeline, runtime: runtime, sink: out, formatter: formatter, style: style)
/// stepped.start()
/// runtime.stepVirtualTime()
/// stepped.elapsed   // 100_000_000: the marble's `a`
/// ```
final class SteppedRun {
    let pipeline: Pipeline
    let runtime: Runtime
    let recorder: RunRecorder
    let run: PipelineRun
    let watch: StageWatch
    /// The `:` lines and statements typed while it ran, in order (`:save` writes them).
    var script: [String] = []

    /// - Parameters:
    ///   - sink: Event and stage lines; nil prints nothing.
    ///   - stageLines: Print a line per stage event (off with `:trace on`, which prints them already).
    init(
        pipeline: Pipeline, runtime: Runtime, sink: OutputSink?, formatter: EventFormatter, style: Style, trace: Bool = false,
        stageLines: Bool = true, onTerminal: @escaping @Sendable () -> Void = {}
    ) {
        self.pipeline = pipeline
        self.runtime = runtime
        let recorder = RunRecorder(job: 0, runtime: runtime, formatter: formatter, sink: sink, onTerminal: onTerminal)
        self.recorder = recorder
        let watch = StageWatch(sink: stageLines ? sink : nil, style: style) {
            Swift.max(0, runtime.nowNanoseconds() &- recorder.startNanoseconds)
        }
        self.watch = watch
        run = pipeline.makeRun(trace: trace, record: true) { event in
            watch.observe(event)
            recorder.handle(event)
        }
    }

    /// Subscribes and runs what happens at time 0.
    func start() {
        run.start()
        runtime.settleVirtualTime()
    }

    /// The run's time now: ns since its subscription.
    var elapsed: Int64 { Swift.max(0, runtime.nowNanoseconds() &- recorder.startNanoseconds) }

    /// `150 ms`: where the run is paused.
    var elapsedText: String { EventFormatter.durationText(.nanoseconds(elapsed)) }

    var isDone: Bool { recorder.isDone }

    /// Moves the run to its next scheduled instant (`:next`, the room's Step), running what falls
    /// due there. Returns false when nothing is scheduled (the run waits for input, or it ended).
    func stepToNextInstant() -> Bool {
        runtime.forgetTimerStage()
        return runtime.stepVirtualTime() != nil
    }

    /// The diagram's run so far, its time axis ending at the run's time now: what each pause
    /// draws, in the terminal (`diagramLines`) and in the room (`StepTimeline`).
    var diagramSoFar: MarbleRun {
        recorder.partialSnapshot.marbles.snapshot(endingAt: elapsed)
    }

    /// The diagram so far with the cursor under the current instant (`▲ 150 ms`), nil when
    /// nothing was recorded.
    func diagramLines(width: Int, color: Bool) -> [String]? {
        let now = elapsed
        let marbleRun = diagramSoFar
        guard !marbleRun.lanes.isEmpty else { return nil }
        let layout = MarbleLayout(marbleRun, width: width)
        var lines = MarbleText.render(layout, color: color)
        lines.insert(Self.cursor(layout, at: now, color: color), at: min(lines.count, 1 + layout.laneLineCount))
        return lines
    }

    /// `▲ 150 ms` under the lanes' last column: a live lane is drawn up to the run's time now.
    static func cursor(_ layout: MarbleLayout, at ns: Int64, color: Bool) -> String {
        let column = layout.labelWidth + Swift.max(0, layout.laneWidth - 1)
        let text = "▲ " + EventFormatter.durationText(.nanoseconds(ns))
        return String(repeating: " ", count: column) + Style(enabled: color).bold(text)
    }
}
