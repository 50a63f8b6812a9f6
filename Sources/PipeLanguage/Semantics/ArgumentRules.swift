/// Duration conversions shared by the checker and the builders.
enum Durations {
    /// A bare number where a duration is expected means milliseconds.
    static func nanoseconds(fromMilliseconds value: Value) -> Result<Int64, DurationProblem> {
        switch value {
        case .int(let ms):
            guard ms >= 0 else { return .failure(DurationProblem(text: "a non-negative duration")) }
            let (ns, o) = ms.multipliedReportingOverflow(by: 1_000_000)
            guard !o else { return .failure(DurationProblem(text: "a duration that fits (at most \(Int.max / 1_000_000) ms)")) }
            return .success(Int64(ns))
        case .double(let ms):
            guard ms.isFinite, ms >= 0 else { return .failure(DurationProblem(text: "a non-negative duration")) }
            guard ms * 1e6 < 9.2e18 else { return .failure(DurationProblem(text: "a duration that fits (at most \(Int.max / 1_000_000) ms)")) }
            return .success(Int64(ms * 1e6))
        default:
            return .failure(DurationProblem(text: "a duration such as 100ms"))
        }
    }

    struct DurationProblem: Error {
        var text: String
    }
}

/// The one range check, shared by the checker (constant ranges), the builders (`from` over `$0`)
/// and the interpreter (ranges in closures).
enum Ranges {
    /// Why `lower...upper` is not a range, or nil when it is: the checker's diagnostic, or (at run
    /// time, where the bounds came from `$0`) the evaluation's failure.
    static func problem(_ lower: Int, _ upper: Int, atRunTime: Bool = false) -> Message? {
        guard lower > upper else { return nil }
        return atRunTime ? .rangeBoundsReversed(lower, upper) : .invertedRange(lower, upper)
    }
}

/// Caps that keep a pipeline's build and subscription within the stack.
enum Limits {
    /// Most operators one pipeline builds: its stages, its nested pipelines' stages and the stages
    /// of every binding it names, expanded (`:trace on` adds one operator a stage). Subscribing
    /// recurses once per operator on the thread that subscribes (8 MiB on the main thread):
    /// measured in a debug build, 2,500 `map` stages overflow it and 2,000 do not, 1,000 traced
    /// `flatMap { just $0 }` stages (4,000 operators) overflow and 800 do not. 1,000 stages, traced
    /// or not, stays below both.
    static let maxExpandedStages = 1_000
    /// Largest string a closure may make (`+`, interpolation): 16 MiB of UTF-8. Past it the
    /// pipeline fails at the closure, as an integer overflow does, instead of exhausting memory.
    static let maxStringBytes = 16 * 1024 * 1024
    /// Most elements an array a closure makes (`+`, a range) or `collect` gathers may have.
    static let maxArrayCount = 1_000_000
}

/// A duration written as the language writes it (`100ms`, `1.5s`, `2h`), outside a script: for
/// command-line options (`plumb --until 2h`).
public enum DurationLiteral {
    /// Nanoseconds per unit, as the lexer reads them.
    static let units: [String: Double] = ["ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9]
    /// The units people may write, for messages.
    static let unitList = "ns, us (or µs), ms, s, m or h"
    /// Durations are whole nanoseconds below this (an `Int64` of nanoseconds, with room to add).
    static let limitNanoseconds = 9.2e18
    /// The longest duration, as messages give it.
    public static let longest = "\(Int64((limitNanoseconds - 1) / 3600e9))h (about \(Int64(limitNanoseconds / 1e9 / 31_557_600)) years)"
    /// What a period must be, as messages say it (`interval 0.5ns` is 0 nanoseconds).
    static let atLeastOneNanosecond = "a duration of at least 1ns (durations are whole nanoseconds)"

    /// `"2h"` → 7_200_000_000_000; nil when it is not a positive duration with a unit.
    public static func nanoseconds(_ text: String) -> Int64? {
        let number = text.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(number), let scale = units[String(text.dropFirst(number.count))] else { return nil }
        let ns = value * scale
        guard ns.isFinite, ns >= 1, ns < limitNanoseconds else { return nil }
        return Int64(ns)
    }

    /// Whether `text` is a well-formed duration too long for `nanoseconds` (`9999999h`), so a
    /// message can say "too long" and give `longest` rather than show a usage line.
    public static func isTooLong(_ text: String) -> Bool {
        let number = text.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(number), let scale = units[String(text.dropFirst(number.count))] else { return false }
        return value * scale >= limitNanoseconds
    }
}
