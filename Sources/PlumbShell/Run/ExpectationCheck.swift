import PipeLanguage

/// Whether an `expect` holds for a recorded run, and the words for both sides. Pure: the
/// statement runner counts and prints.
///
/// ```swift
/// ExpectationCheck.verdict(.count(2), on: record, clock: .virtual)   // .holds, or .fails("expected count 2, got count 3")
/// ```
enum ExpectationCheck {
    enum Verdict: Equatable {
        case holds
        /// `expected …, got …`, with a marble diff under it for `expect marbles`.
        case fails(String)
    }

    /// - Parameters:
    ///   - record: the last foreground run, nil when none ran before the `expect`.
    ///   - clock: on the real clock `expect time` allows 10% or 20 ms, whichever is larger.
    ///   - subscriptions: how many times a binding's source was subscribed (`expect subscriptions`).
    static func verdict(
        _ expectation: Expectation, on record: RunRecord?, clock: ClockMode, subscriptions: (String) -> Int? = { _ in nil }
    ) -> Verdict {
        guard let record else {
            return .fails("expected \(describe(expectation)), got no pipeline run before it")
        }
        let holds: Bool
        switch expectation {
        case .values(let values):
            holds = !record.valuesTruncated && record.values == values
        case .finished:
            holds = record.termination == .finished
        case .failed(let message):
            if case .failed(let actual, _) = record.termination {
                holds = actual == message || actual.contains(message)
            } else {
                holds = false
            }
        case .count(let count):
            holds = record.count == count
        case .time(let expected):
            holds = sameTime(record.duration, expected, clock: clock)
        case .subscriptions(let name, let count):
            let actual = subscriptions(name) ?? 0
            guard actual == count else {
                var text = "expected \(describe(expectation)), got \(name)'s source subscribed \(actual) time\(actual == 1 ? "" : "s")"
                if count == 1 && actual > 1 {
                    text +=
                        "\n  why: each subscriber of \(name) subscribed to its source anew; `| share` at the end of its `let` makes them share one subscription"
                }
                return .fails(text)
            }
            holds = true
        case .started(let expected):
            holds = record.futureStarts.first.map { sameTime(.nanoseconds($0), expected, clock: clock) } ?? false
        case .marbles(let expected, let frame):
            // Values, not spellings; any number of frames; a message of bounded size.
            let comparison = MarbleComparison(expected: expected, events: record.timeline, frame: EventFormatter.nanoseconds(frame))
            if comparison.holds { return .holds }
            return .fails(
                "expected marbles \"\(expected)\", got \"\(comparison.actual)\"\n"
                    + comparison.diff.map { "  " + $0 }.joined(separator: "\n"))
        }
        guard !holds else { return .holds }
        var text = "expected \(describe(expectation)), got \(describe(record, for: expectation))"
        if case .values(let values) = expectation, let why = why(expected: values, got: record.values) { text += "\n  why: " + why }
        return .fails(text)
    }

    /// Why the values differ, when it can be told: a whole number where a fraction was expected
    /// (`/` between two Ints), or a value of another kind (`1` for `"1"`). Nil otherwise.
    ///
    /// ```swift
    /// ExpectationCheck.why(expected: [.double(2.5)], got: [.int(2)])
    /// // "2 is 2.5 without its fraction: `/` between two Ints …"
    /// ```
    static func why(expected: [Value], got actual: [Value]) -> String? {
        guard expected.count == actual.count,
            let index = expected.indices.first(where: { expected[$0] != actual[$0] })
        else { return nil }
        let (wanted, got) = (expected[index], actual[index])
        if case .double(let fraction) = wanted, case .int(let whole) = got, fraction.rounded(.towardZero) == Double(whole),
            fraction != fraction.rounded()
        {
            return "\(whole) is \(wanted) without its fraction: `/` between two Ints divides whole numbers (7 / 2 is 3); "
                + "make one side a Double (7.0 / 2, or Double($0) / 2)"
        }
        guard wanted.typeName != got.typeName else { return nil }
        return "the pipeline emits \(got.typeName) \(got) where \(wanted.typeName) \(wanted) is expected: a value of another kind "
            + "(`:type` shows what each stage emits)"
    }

    /// Exact on the virtual clock; real time is never exact: within 10% or 20 ms, whichever is larger.
    static func sameTime(_ actual: Duration, _ expected: Duration, clock: ClockMode) -> Bool {
        guard clock == .real else { return actual == expected }
        let slack = max(expected / 10, .milliseconds(20))
        return actual >= expected - slack && actual <= expected + slack
    }

    static func describe(_ expectation: Expectation) -> String {
        switch expectation {
        case .values(let values): "values \(describe(values))"
        case .finished: "finished"
        case .failed(let message): "failed \"\(message)\""
        case .count(let count): "count \(count)"
        case .time(let duration): "time \(EventFormatter.durationText(duration))"
        case .marbles(let marbles, _): "marbles \"\(marbles)\""
        case .subscriptions(let name, let count): "subscriptions \(name) \(count)"
        case .started(let duration): "started \(EventFormatter.durationText(duration))"
        }
    }

    static func describe(_ values: [Value]) -> String {
        "[" + values.map(\.description).joined(separator: ", ") + "]"
    }

    static func describe(_ termination: Termination?) -> String {
        switch termination {
        case .finished: "finished"
        // With the id of an error the language raised, as the event line has it (`failed[E340]`).
        case .failed(let message, let id): (id.map { "failed[\($0.code)] " } ?? "failed ") + "\"\(TerminalText.escaped(message))\""
        case .cancelled: "cancelled"
        case nil: "still running"
        }
    }

    /// What the run did, in the expectation's terms.
    static func describe(_ record: RunRecord, for expectation: Expectation) -> String {
        switch expectation {
        case .values:
            let shown = describe(Array(record.values.prefix(20)))
            let more = record.count > 20 ? " (\(record.count) values)" : ""
            var text = "values \(record.count > 20 ? String(shown.dropLast()) + ", …]" : shown)\(more)"
            if case .failed = record.termination { text += ", then " + describe(record.termination) }
            return text
        case .finished, .failed: return describe(record.termination)
        case .count: return "count \(record.count)"
        case .time: return "time \(EventFormatter.durationText(record.duration))"
        case .marbles(_, let frame):
            return "marbles \"\(MarbleNotation.render(record.timeline, frame: EventFormatter.nanoseconds(frame)))\""
        case .subscriptions(let name, _): return "subscriptions \(name)"
        case .started:
            guard let first = record.futureStarts.first else {
                return "no future started during the run (an eager future starts when it is made, before anyone subscribes)"
            }
            return "started \(EventFormatter.durationText(.nanoseconds(first)))"
        }
    }
}
