/// Time as the diagrams print it: the round steps a column may stand for, the ruler's unit, and
/// durations for the footer and the collapsed idle stretches.
enum TimeScale {
    /// The round steps (1, 2, 5 × 10ⁿ nanoseconds), smallest first.
    static let steps: [Int64] = {
        var out: [Int64] = []
        var power: Int64 = 1
        while power <= 1_000_000_000_000_000 {
            out += [power, power * 2, power * 5]
            power *= 10
        }
        return out
    }()

    /// The largest round step not above `limit` (at least 1 ns).
    static func step(atMost limit: Int64) -> Int64 {
        steps.last(where: { $0 <= limit }) ?? 1
    }

    /// The smallest round step not below `limit`.
    static func step(atLeast limit: Int64) -> Int64 {
        steps.first(where: { $0 >= limit }) ?? steps[steps.count - 1]
    }

    /// The round step nearest to `target` by ratio (48 ms → 50 ms, 30 ms → 20 ms).
    static func step(near target: Int64) -> Int64 {
        let below = step(atMost: target)
        let above = step(atLeast: target)
        return Double(target) / Double(below) <= Double(above) / Double(target) ? below : above
    }

    /// The next round step after `step`.
    static func coarser(than step: Int64) -> Int64 {
        steps.first(where: { $0 > step }) ?? step * 2
    }

    /// How many columns apart the ruler's marks are: at least 4, and a round time.
    static func markEvery(step: Int64) -> Int64 {
        for k: Int64 in 4...10 where isRound(k * step) { return k }
        return 10
    }

    static func isRound(_ value: Int64) -> Bool {
        var v = value
        while v >= 10 && v % 10 == 0 { v /= 10 }
        return v == 1 || v == 2 || v == 5
    }

    private static let units: [(ns: Int64, name: String)] = [
        (1, "ns"), (1_000, "µs"), (1_000_000, "ms"), (1_000_000_000, "s"),
    ]

    /// The ruler's unit for marks `interval` nanoseconds apart: the scale each mark's number is
    /// in, and its name (`ms`, `ms×100`).
    static func rulerUnit(markInterval interval: Int64) -> (scale: Int64, name: String) {
        let unit = units.last(where: { $0.ns <= interval }) ?? units[0]
        var multiplier: Int64 = 1
        while interval % (unit.ns * multiplier * 10) == 0 { multiplier *= 10 }
        return (unit.ns * multiplier, multiplier == 1 ? unit.name : "\(unit.name)×\(multiplier)")
    }

    /// A step for the footer: `50 ms`, `1 s`, `200 µs`.
    static func stepText(_ step: Int64) -> String {
        let unit = units.last(where: { step >= $0.ns && step % $0.ns == 0 }) ?? units[0]
        return "\(step / unit.ns) \(unit.name)"
    }

    /// A duration in two significant figures at most: `9.6s`, `150ms`, `1.5ms`, `40µs`, `12s`.
    static func durationText(_ ns: Int64) -> String {
        let unit = units.last(where: { $0.ns <= ns }) ?? units[0]
        let value = Double(ns) / Double(unit.ns)
        if value >= 10 || unit.ns == 1 {
            return "\(Int64(value.rounded()))\(unit.name)"
        }
        let tenths = Int64((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)\(unit.name)" : "\(tenths / 10).\(tenths % 10)\(unit.name)"
    }
}
