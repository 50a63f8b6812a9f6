/// Time as the diagrams print it: the round steps a column may stand for, the ruler's marks in
/// plain units, and durations for the footer and the collapsed idle stretches.
enum TimeScale {
    /// The round steps (1, 2, 2.5, 5 × 10ⁿ nanoseconds), smallest first. 2.5 × 10ⁿ is there for
    /// periods that 2 × 10ⁿ does not divide: `interval 50ms` draws evenly at 25 ms per column.
    static let steps: [Int64] = {
        var out: [Int64] = []
        var power: Int64 = 1
        while power <= 1_000_000_000_000_000 {
            out += [power, power * 2]
            if power >= 10 { out.append(power / 10 * 25) }
            out.append(power * 5)
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

    /// The round step nearest to `target` by ratio (48 ms → 50 ms, 30 ms → 25 ms).
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

    /// Whether `value` is 1, 2, 2.5 or 5 × 10ⁿ.
    static func isRound(_ value: Int64) -> Bool {
        guard value > 0 else { return false }
        var v = value
        while v >= 100 && v % 10 == 0 { v /= 10 }
        return v == 1 || v == 2 || v == 5 || v == 10 || v == 20 || v == 25 || v == 50
    }

    static let units: [(ns: Int64, name: String)] = [
        (1, "ns"), (1_000, "µs"), (1_000_000, "ms"), (1_000_000_000, "s"),
    ]

    /// The unit a ruler with marks `interval` nanoseconds apart is written in: the largest unit
    /// not above the interval (`100 ms` marks in ms, `1 s` marks in s, `500 ms` marks in ms).
    static func rulerUnit(markInterval interval: Int64) -> (ns: Int64, name: String) {
        units.last(where: { $0.ns <= interval }) ?? units[0]
    }

    /// `value / unit` as a plain decimal: `100`, `2.5`, `0.25`, `12`.
    static func decimal(_ value: Int64, unit: Int64) -> String {
        let whole = value / unit
        var rest = value % unit
        guard rest != 0 else { return String(whole) }
        var digits = ""
        var scale = unit
        while rest != 0 && scale > 1 && digits.count < 3 {
            scale /= 10
            digits.append(Character(String(rest / scale)))
            rest %= scale
        }
        while digits.last == "0" { digits.removeLast() }
        return digits.isEmpty ? String(whole) : "\(whole).\(digits)"
    }

    /// A step for the footer: `50 ms`, `1 s`, `200 µs`, `2.5 ms`.
    static func stepText(_ step: Int64) -> String {
        let unit = units.last(where: { step >= $0.ns }) ?? units[0]
        return "\(decimal(step, unit: unit.ns)) \(unit.name)"
    }

    /// A duration in two significant figures at most, in plain units: `9.6 s`, `150 ms`,
    /// `1.5 ms`, `40 µs`, `12 s`.
    static func durationText(_ ns: Int64) -> String {
        let unit = units.last(where: { $0.ns <= ns }) ?? units[0]
        let value = Double(ns) / Double(unit.ns)
        if value >= 10 || unit.ns == 1 {
            return "\(Int64(value.rounded())) \(unit.name)"
        }
        let tenths = Int64((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit.name)" : "\(tenths / 10).\(tenths % 10) \(unit.name)"
    }

    /// An instant on an axis in plain units: `0`, `100 ms`, `0.5 s`, `1 s`, in the unit given.
    static func instantText(_ ns: Int64, unit: (ns: Int64, name: String)) -> String {
        if ns == 0 && unit.ns < 1_000_000_000 { return "0" }
        return "\(decimal(ns, unit: unit.ns)) \(unit.name)"
    }
}
