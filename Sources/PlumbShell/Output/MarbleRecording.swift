import PipeLanguage
import PlumbDiagrams

/// Turns a run's `.lane` events into the `MarbleRun` the diagrams draw: a lane per stage, inner
/// publishers as numbered sub-lanes under the stage that made them, and a stage subscribed again
/// (under a `retry`) split into attempt lanes `#1`, `#2`, ….
struct MarbleRecording: Sendable {
    /// Past this many events a diagram stops recording (it could not show them anyway).
    static let maxEvents = 20_000

    private(set) var run = MarbleRun()
    private var header: [Int: Int] = [:]
    private var current: [Int: Int] = [:]
    private var subscriptions: [Int: Int] = [:]
    private var children: [Int: Int] = [:]
    private var events = 0
    /// True once events were dropped for the cap.
    private(set) var truncated = false

    mutating func handle(lane: Int, _ signal: LaneSignal, at time: Int64) {
        if case .opened(let label, _, let parent) = signal {
            if let parent, let parentLane = header[parent] {
                children[parentLane, default: 0] += 1
                let index = run.addLane(label: "inner \(children[parentLane]!)", parent: parentLane, kind: .inner)
                header[lane] = index
                current[lane] = index
            } else {
                let index = run.addLane(label: label)
                header[lane] = index
                current[lane] = index
            }
            return
        }
        guard let main = header[lane] else { return }
        switch signal {
        case .finished, .failed, .cancelled: break  // endings are always drawn
        default:
            guard events < Self.maxEvents else {
                truncated = true
                return
            }
        }
        events += 1
        switch signal {
        case .subscribed:
            let n = subscriptions[lane, default: 0] + 1
            subscriptions[lane] = n
            if n == 2 {
                // The first attempt's events move to its own lane under the stage.
                let first = run.addLane(label: "#1", parent: main, kind: .attempt)
                run.lanes[first].events = run.lanes[main].events
                run.lanes[main].events = []
            }
            if n >= 2 {
                current[lane] = run.addLane(label: "#\(n)", parent: main, kind: .attempt)
            }
            run.record(.subscribed, lane: current[lane] ?? main, at: time)
        case .value(let value): run.record(.value(MarbleValue(text: Self.text(of: value))), lane: current[lane] ?? main, at: time)
        case .finished: run.record(.finished, lane: current[lane] ?? main, at: time)
        case .failed(let message): run.record(.failed(TerminalText.escaped(message)), lane: current[lane] ?? main, at: time)
        case .cancelled: run.record(.cancelled, lane: current[lane] ?? main, at: time)
        case .opened: break
        }
    }

    /// A value as a diagram writes it: a one-character string as itself (`a`, not `"a"`), so it
    /// draws as its own glyph; anything else in the language's syntax.
    static func text(of value: Value) -> String {
        if case .string(let s) = value, s.count == 1 { return s }
        return value.description
    }

    /// The run, ending at `time` (for a live or partial diagram).
    func snapshot(endingAt time: Int64) -> MarbleRun {
        var copy = run
        copy.end = max(copy.end, time)
        return copy
    }
}
