/// The SVG's time axis: x is one linear function of time for every lane of a diagram, except
/// across a collapsed idle stretch, which is drawn as a break of fixed width (a zigzag labelled
/// with its duration) in every lane and on the axis.
///
/// The scale is chosen so that the lanes take about `targetWidth` pixels, and is raised (a wider
/// picture, never a shifted time) until no two distinct instants of one lane are closer than
/// `separation` pixels, up to `maximumWidth`; past that, marks that would overlap are stacked
/// (see `MarbleSVG`).
///
/// ```swift
/// let axis = TimeAxis(times: [[0, 100_000_000]], end: 100_000_000, origin: 200)
/// axis.x(50_000_000)   // origin + half the lanes' width
/// axis.ticks.map(\.label)   // ["0", "10 ms", "20 ms", …, "100 ms"]
/// ```
struct TimeAxis {
    /// A collapsed idle stretch: nothing happened in any lane from `from` to `to`.
    struct Break {
        var from: Int64
        var to: Int64
        /// x of `from`; `to` is at `left + TimeAxis.breakWidth`.
        var left: Double
    }

    /// A round tick: its time, x and label in plain units (`0`, `100 ms`, `0.5 s`).
    struct Tick {
        var time: Int64
        var x: Double
        var label: String
    }

    /// Pixels a break takes, margins included.
    static let breakWidth = 64.0
    /// An idle stretch breaks when it is at least this many times the median gap between
    /// instants, and at least a quarter of the run.
    static let breakFactor: Int64 = 8

    let origin: Double
    let pixelsPerNanosecond: Double
    let breaks: [Break]
    /// The last instant drawn: the run's end or its last event, whichever is later.
    let span: Int64
    private(set) var ticks: [Tick] = []

    /// An axis for lanes whose event times are `times` (each lane sorted).
    ///
    /// - Parameters:
    ///   - times: Each lane's event times, sorted.
    ///   - end: The run's end (a live lane runs to it).
    ///   - origin: The x of time 0.
    ///   - separation: The least distance, in pixels, between two distinct instants of a lane.
    ///   - targetWidth: The lanes' width when nothing is crowded.
    ///   - maximumWidth: The widest the lanes may grow to keep instants apart.
    ///   - marks: Other instants drawn (pulls): never inside a break, but small enough not to be
    ///     kept apart.
    init(
        times: [[Int64]], end: Int64, origin: Double, separation: Double = 26, targetWidth: Double = 720,
        maximumWidth: Double = 16_000, marks: [Int64] = []
    ) {
        self.origin = origin
        var instants: [Int64] = [0] + marks
        var laneGap = Int64.max
        for lane in times {
            instants += lane
            for i in lane.indices.dropFirst() where lane[i] > lane[i - 1] {
                laneGap = min(laneGap, lane[i] - lane[i - 1])
            }
        }
        let span = max(end, instants.max() ?? 0, 0)
        instants.append(span)
        instants.sort()
        var gaps: [(from: Int64, to: Int64)] = []
        for i in instants.indices.dropFirst() where instants[i] > instants[i - 1] {
            gaps.append((instants[i - 1], instants[i]))
        }
        let lengths = gaps.map { $0.to - $0.from }.sorted()
        let median = lengths.isEmpty ? 0 : lengths[lengths.count / 2]
        var candidates = gaps.filter {
            let length = $0.to - $0.from
            return length >= Self.breakFactor * median && length * 4 >= span
        }

        func scale(_ candidates: [(from: Int64, to: Int64)]) -> Double {
            let linear = span - candidates.reduce(0) { $0 + ($1.to - $1.from) }
            guard linear > 0 else { return 0 }
            var k = targetWidth / Double(linear)
            if laneGap != .max { k = max(k, separation / Double(laneGap)) }
            return min(k, max(targetWidth, maximumWidth) / Double(linear))
        }
        var k = scale(candidates)
        // A stretch cheaper to draw than its break is drawn as it is.
        let kept = candidates.filter { Double($0.to - $0.from) * k > 3 * Self.breakWidth }
        if kept.count != candidates.count {
            candidates = kept
            k = scale(candidates)
        }
        self.pixelsPerNanosecond = k
        self.span = span

        var breaks: [Break] = []
        var x = origin
        var last: Int64 = 0
        for gap in candidates {
            x += Double(gap.from - last) * k
            breaks.append(Break(from: gap.from, to: gap.to, left: x))
            x += Self.breakWidth
            last = gap.to
        }
        self.breaks = breaks
        ticks = makeTicks()
    }

    /// The x of time `t`: linear in each stretch between breaks, one scale for all of them.
    func x(_ t: Int64) -> Double {
        var x = origin
        var last: Int64 = 0
        for b in breaks {
            if t <= b.from { break }
            if t < b.to { return b.left + Double(t - b.from) / Double(b.to - b.from) * Self.breakWidth }
            x = b.left + Self.breakWidth
            last = b.to
        }
        return x + Double(t - last) * pixelsPerNanosecond
    }

    /// The x of the last instant drawn.
    var right: Double { x(span) }

    /// Ticks at multiples of a round interval at least 70 px apart, in each stretch between
    /// breaks (a tick may sit at a break's edge: the zigzag is in the break's middle). Each
    /// stretch reads in one plain unit: the largest not above twice the interval (`0.5 s` but
    /// `200 ms`), or the next one when its last tick would need four digits in it (`10 s` after
    /// a break in a run of 50 ms ticks).
    private func makeTicks() -> [Tick] {
        guard pixelsPerNanosecond > 0 else { return [Tick(time: 0, x: origin, label: "0")] }
        let interval = TimeScale.steps.first { Double($0) * pixelsPerNanosecond >= 70 } ?? TimeScale.steps[TimeScale.steps.count - 1]
        var stretches: [(Int64, Int64)] = []
        var start: Int64 = 0
        for b in breaks {
            stretches.append((start, b.from))
            start = b.to
        }
        stretches.append((start, span))
        var ticks: [Tick] = []
        for (a, b) in stretches {
            var times: [Int64] = []
            var t = (a + interval - 1) / interval * interval
            while t <= b {
                times.append(t)
                t += interval
            }
            var unit = TimeScale.units.last { $0.ns <= 2 * interval } ?? TimeScale.units[0]
            if let bigger = TimeScale.units.first(where: { $0.ns > unit.ns }), (times.last ?? 0) >= 1000 * unit.ns { unit = bigger }
            for t in times { ticks.append(Tick(time: t, x: x(t), label: TimeScale.instantText(t, unit: unit))) }
        }
        return ticks
    }
}
