/// A recorded run as the diagrams draw it: one lane per stage, sub-lanes for inner publishers and
/// retry attempts, each with its events at their times. Pure data: the shell fills it from a
/// pipeline's per-stage hooks, the layout turns it into text lines or an SVG.
///
/// ```swift
/// var run = MarbleRun()
/// let source = run.addLane(label: "interval 100ms")
/// run.record(.subscribed, lane: source, at: 0)
/// run.record(.value(MarbleValue(text: "0")), lane: source, at: 100_000_000)
/// ```
public struct MarbleRun: Sendable, Hashable {
    /// Every lane, in the order they were added; children follow their parent when drawn.
    public var lanes: [MarbleLane] = []
    /// When the run ended (or now, for a live or partial diagram), in nanoseconds since the start.
    public var end: Int64 = 0

    /// An empty run: no lanes, ended at 0.
    public init() {}

    /// Adds a lane and returns its index.
    ///
    /// - Parameters:
    ///   - label: The stage's text (`map { $0 * 2 }`), or for a sub-lane its name (`inner 1`, `#2`).
    ///   - parent: The lane this one hangs under (an inner publisher's stage, a retry's attempts).
    ///   - kind: A stage, an inner publisher, or a retry attempt.
    @discardableResult
    public mutating func addLane(label: String, parent: Int? = nil, kind: MarbleLane.Kind = .stage) -> Int {
        lanes.append(MarbleLane(label: label, parent: parent, kind: kind))
        return lanes.count - 1
    }

    /// Records an event on a lane at `time` nanoseconds since the run's start.
    public mutating func record(_ event: MarbleEvent, lane: Int, at time: Int64) {
        guard lanes.indices.contains(lane) else { return }
        lanes[lane].events.append(MarbleEvent.Timed(time: time, event: event))
        end = max(end, time)
    }

    /// Records a pull on an async stage's lane: its consumer called `next()` at `time`. A pull is
    /// not an event: the diagrams draw it as a mark under the lane (`↑` in text, a small triangle
    /// in the SVG), and `expect marbles` does not see it.
    public mutating func recordPull(lane: Int, at time: Int64) {
        guard lanes.indices.contains(lane) else { return }
        lanes[lane].pulls.append(time)
        end = max(end, time)
    }
}

/// One lane: a stage of the pipeline, an inner publisher, or one attempt of a retry.
///
/// ```swift
/// let lane = MarbleLane(label: "#2", parent: 0, kind: .attempt)
/// ```
public struct MarbleLane: Sendable, Hashable {
    /// What the lane stands for, which decides how its label is drawn.
    public enum Kind: Sendable, Hashable {
        /// A stage of the pipeline as written (`[2] map { $0 * 2 }`).
        case stage
        /// An inner publisher of flatMap, switchToLatest, catch, deferred (`├ inner 1`).
        case inner
        /// One subscription of the stages above a retry (`#1`, `#2`, …).
        case attempt
    }

    /// The stage's text, or a sub-lane's name (`inner 1`, `#2`).
    public var label: String
    /// The index of the lane this one is drawn under; it must come before this lane.
    public var parent: Int?
    /// A stage, an inner publisher, or a retry attempt.
    public var kind: Kind
    /// The lane's events, in the order they happened.
    public var events: [MarbleEvent.Timed] = []
    /// An async stage's pulls: when its consumer called `next()`, in nanoseconds since the run's
    /// start, in order. Empty for a publisher stage (a publisher is asked by demand, not pulled).
    public var pulls: [Int64] = []

    /// A lane with its events (`MarbleRun.addLane` and `record` are the usual way to fill one).
    public init(label: String, parent: Int? = nil, kind: Kind = .stage, events: [MarbleEvent.Timed] = [], pulls: [Int64] = []) {
        self.label = label
        self.parent = parent
        self.kind = kind
        self.events = events
        self.pulls = pulls
    }
}

/// What happened on a lane.
public enum MarbleEvent: Sendable, Hashable {
    /// A subscription (drawn as `^`).
    case subscribed
    /// A value (drawn as its one character or its key letter).
    case value(MarbleValue)
    /// A finish (drawn as `|`).
    case finished
    /// The failure's message (drawn as `#`, the message on a legend line) and, for an error the
    /// language raised, its id (`E602`): shown as `failed[E602]: …` in the legend and the title;
    /// nil for a user's `fail "boom"`.
    case failed(String, id: String? = nil)
    /// A real cancel (never drawn after a finish or a failure).
    case cancelled

    /// An event with its time in nanoseconds since the run's start.
    public struct Timed: Sendable, Hashable {
        /// Nanoseconds since the run's start.
        public var time: Int64
        /// What happened.
        public var event: MarbleEvent
        /// An event at a time: `MarbleEvent.Timed(time: 100_000_000, event: .finished)`.
        public init(time: Int64, event: MarbleEvent) {
            self.time = time
            self.event = event
        }
    }
}

extension MarbleEvent {
    /// How a failure is named where it is shown: `failed[E602]` with an id, `failed` without.
    ///
    /// ```swift
    /// MarbleEvent.failureHeading(id: "E602")   // "failed[E602]"
    /// MarbleEvent.failureHeading(id: nil)      // "failed"
    /// ```
    public static func failureHeading(id: String?) -> String {
        id.map { "failed[\($0)]" } ?? "failed"
    }
}

/// A value as the diagram shows it: its text in the language's syntax (`10`, `"hello"`,
/// `[1, 2]`). One character draws as itself; longer ones get a key letter and a legend entry.
public struct MarbleValue: Sendable, Hashable {
    /// The value in the language's syntax.
    public var text: String
    /// A value drawn from its text: `MarbleValue(text: "\"hello\"")`.
    public init(text: String) { self.text = text }
}
