/// The lanes of a run in drawing order, with their labels and the events the diagram draws:
/// the first step of the layout, independent of the width's time scale.
struct LanePlan {
    struct Lane {
        /// Index in `MarbleRun.lanes`.
        var index: Int
        var kind: MarbleLane.Kind
        /// 0 for a top-level lane, 1 for its sub-lanes, and so on.
        var depth: Int
        /// The tree prefix (`[2] `, `    ├ `, `    │ └ `) and the lane's own text.
        var prefix: String
        var text: String
        /// Events in recorded order with times never going back, cut after the first finish,
        /// failure or cancel (so a `!` never follows a `|` or `#`).
        var times: [Int64]
        var events: [MarbleEvent]
        /// Each drawn event's index in `MarbleLane.events` (the SVG names its marks by it).
        var order: [Int]
        /// Whether the lane ends with a finish, failure or cancel (else it is live to the run's end).
        var ended: Bool
        /// An async stage's pulls (its consumer's `next()` calls), sorted, none after the lane's
        /// end: drawn as marks under the lane, not as events.
        var pulls: [Int64] = []
    }

    var lanes: [Lane]

    init(_ run: MarbleRun) {
        let count = run.lanes.count
        // A parent must come before its child, so the tree cannot have cycles.
        func parent(of i: Int) -> Int? {
            guard let p = run.lanes[i].parent, p >= 0, p < i else { return nil }
            return p
        }
        var children = Array(repeating: [Int](), count: count)
        var roots: [Int] = []
        for i in 0..<count {
            if let p = parent(of: i) { children[p].append(i) } else { roots.append(i) }
        }
        var stageNumber = Array(repeating: -1, count: count)
        var next = 0
        for i in 0..<count where run.lanes[i].kind == .stage {
            stageNumber[i] = next
            next += 1
        }

        var lanes: [Lane] = []
        lanes.reserveCapacity(count)
        // Iterative depth-first walk: (lane, depth, the ancestors' "is last child" flags).
        var stack: [(Int, Int, [Bool])] = roots.reversed().map { ($0, 0, []) }
        while let (i, depth, lastFlags) = stack.popLast() {
            let lane = run.lanes[i]
            var prefix = ""
            if depth > 0 {
                prefix = "    "
                for isLast in lastFlags.dropLast() { prefix += isLast ? "  " : "│ " }
                prefix += lastFlags.last == true ? "└ " : "├ "
            }
            if lane.kind == .stage { prefix += "[\(stageNumber[i])] " }
            let (times, events, order, ended) = Self.drawnEvents(lane.events)
            lanes.append(
                Lane(
                    index: i, kind: lane.kind, depth: depth, prefix: prefix, text: sanitized(lane.label),
                    times: times, events: events, order: order, ended: ended,
                    pulls: Self.drawnPulls(lane.pulls, until: ended ? times.last : nil)))
            let kids = children[i]
            for (n, child) in kids.enumerated().reversed() {
                stack.append((child, depth + 1, lastFlags + [n == kids.count - 1]))
            }
        }
        self.lanes = lanes
    }

    /// Times the layout can do arithmetic on without overflowing: 0 up to about 73 years.
    static func clamped(_ time: Int64) -> Int64 { min(max(0, time), Int64.max / 4) }

    /// A lane's pulls, clamped, in order, none after the lane's end (`until`).
    private static func drawnPulls(_ pulls: [Int64], until end: Int64?) -> [Int64] {
        guard !pulls.isEmpty else { return [] }
        let drawn = pulls.map(Self.clamped).sorted()
        guard let end else { return drawn }
        return drawn.filter { $0 <= end }
    }

    /// A lane's events in the order they were recorded (a lane's hooks run one at a time, so
    /// that is the order they happened), cut after the first end. A time earlier than the one
    /// before it (a real clock's stamp taken late, or against an origin moved since) is drawn at
    /// the one before: nothing is drawn before the subscription that caused it.
    private static func drawnEvents(_ timed: [MarbleEvent.Timed]) -> ([Int64], [MarbleEvent], [Int], Bool) {
        let order = Array(timed.indices)
        var latest: Int64 = 0
        var times: [Int64] = []
        var events: [MarbleEvent] = []
        times.reserveCapacity(timed.count)
        events.reserveCapacity(timed.count)
        for (n, k) in order.enumerated() {
            let item = timed[k]
            latest = max(latest, Self.clamped(item.time))
            times.append(latest)
            events.append(item.event)
            switch item.event {
            case .finished, .failed, .cancelled: return (times, events, Array(order[...n]), true)
            case .subscribed, .value: continue
            }
        }
        return (times, events, order, false)
    }
}
