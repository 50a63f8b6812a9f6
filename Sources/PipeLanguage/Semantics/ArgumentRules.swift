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
