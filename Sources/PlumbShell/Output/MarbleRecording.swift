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
    /// Per stage lane under a `retry`: the lane that stands for the folded attempts.
    private var folds: [Int: Fold] = [:]
    private var events = 0
    /// True once events were dropped for the cap.
    private(set) var truncated = false

    /// Stores an event's mark, or past `maxEvents` drops it: from then on only a lane's first
    /// ending is kept, so what is kept stays bounded however long the run goes (a `retry` of
    /// `Int.max` attempts ends an attempt forever).
    mutating func handle(lane: Int, _ signal: LaneSignal, at time: Int64) {
        if case .opened(let label, let stage, let parent) = signal {
            // An opening adds a lane: it counts against the cap like any event (an endless
            // `flatMap` opens inner lanes forever).
            guard events < Self.maxEvents else {
                truncated = true
                return
            }
            events += 1
            if let parent, let parentLane = header[parent], stage == LaneSignal.subscriberStage {
                // A subscriber of a shared binding: drawn under the stage, by its own name.
                let index = run.addLane(label: label, parent: parentLane, kind: .inner)
                header[lane] = index
                current[lane] = index
            } else if let parent, let parentLane = header[parent] {
                let child = children[parentLane, default: 0] + 1
                children[parentLane] = child
                let index = run.addLane(label: "inner \(child)", parent: parentLane, kind: .inner)
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
        if events >= Self.maxEvents {
            // Past the cap a lane still shows how it ended, once: a lane that has ended (an
            // attempt whose next ones were not recorded) keeps nothing more.
            truncated = true
            switch signal {
            case .finished, .failed, .cancelled:
                if Self.hasEnded(run.lanes[current[lane] ?? main].events) { return }
            default: return
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
            if n >= 2 && n <= Self.drawnAttempts + 1 {
                current[lane] = run.addLane(label: "#\(n)", parent: main, kind: .attempt)
            } else if n > Self.drawnAttempts + 1, let previous = current[lane] {
                // Past a handful of attempts: the one that just ended joins the fold (the first
                // folded attempt stays drawn there), and its lane is reused for this attempt.
                var fold = folds[lane] ?? Fold(lane: previous, first: n - 1)
                fold.add(failure: Self.failure(in: run.lanes[previous].events))
                if folds[lane] == nil {
                    folds[lane] = fold
                    current[lane] = run.addLane(label: "#\(n)", parent: main, kind: .attempt)
                } else {
                    folds[lane] = fold
                    run.lanes[previous].events = []
                    run.lanes[previous].label = "#\(n)"
                }
                run.lanes[fold.lane].label = fold.label
            }
            run.record(.subscribed, lane: current[lane] ?? main, at: time)
        case .value(let value): run.record(.value(MarbleValue(text: Self.text(of: value))), lane: current[lane] ?? main, at: time)
        case .finished: run.record(.finished, lane: current[lane] ?? main, at: time)
        case .failed(let error):
            run.record(.failed(TerminalText.escaped(error.message), id: error.id?.code), lane: current[lane] ?? main, at: time)
        case .cancelled: run.record(.cancelled, lane: current[lane] ?? main, at: time)
        case .pulled: run.recordPull(lane: current[lane] ?? main, at: time)
        case .opened: break
        }
    }

    /// Whether a lane's last event is an ending.
    static func hasEnded(_ events: [MarbleEvent.Timed]) -> Bool {
        switch events.last?.event {
        case .finished, .failed, .cancelled: return true
        default: return false
        }
    }

    /// Attempts drawn one lane each before the rest are folded into one lane.
    static let drawnAttempts = 3

    /// Attempts `first`…`last` of a stage, drawn as one lane (`first`'s events) with a label that
    /// counts them: `#4 … #997: 994 attempts, each failed the same way`.
    struct Fold: Sendable {
        let lane: Int
        let first: Int
        var count = 0
        var failure: String?
        var sameFailure = true

        mutating func add(failure message: String?) {
            if count == 0 { failure = message } else if message != failure { sameFailure = false }
            count += 1
        }

        var label: String {
            let last = first + count - 1
            let how = sameFailure && failure != nil ? ", each failed the same way" : ""
            return count == 1 ? "#\(first)" : "#\(first) … #\(last): \(count) attempts\(how)"
        }
    }

    /// The failure an attempt's lane ended with, if it did.
    static func failure(in events: [MarbleEvent.Timed]) -> String? {
        for timed in events.reversed() { if case .failed(let message, let id) = timed.event { return MarbleEvent.failureHeading(id: id) + ": " + message } }
        return nil
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
