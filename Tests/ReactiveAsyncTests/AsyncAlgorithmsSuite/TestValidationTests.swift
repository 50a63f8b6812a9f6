import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// The package's `LaggingAsyncSequence`: each element of `base` handed on `delay` after it came.
private struct Lagging<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    let base: Base
    let delay: Duration
    let clock: ManualClock

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let delay: Duration
        let clock: ManualClock

        mutating func next() async throws -> Base.Element? {
            guard let element = try await base.next() else { return nil }
            try await clock.sleep(until: clock.now.advanced(by: delay))
            return element
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), delay: delay, clock: clock) }
}

/// The package's `ViolatingSequence`: its base, then, past the end, one more element or a failure
/// where `nil` is due (a broken iterator, for the validator to catch).
private struct ViolatingPastEnd<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == String {
    let base: Base
    let pastEnd: String?

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let pastEnd: String?
        var ended = false

        mutating func next() async throws -> String? {
            if ended {
                guard let pastEnd else { throw PackageFailure() }
                return pastEnd
            }
            if let element = try await base.next() { return element }
            ended = true
            return nil
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), pastEnd: pastEnd) }
}

/// The operators of the package's validation tests.
enum ValidatedOperator: Sendable {
    /// The package's `map { item in await Task { item.capitalized }.value }`, as a plain
    /// `map { $0.uppercased() }`: a bare `Task {}` started inside an operator's closure runs on the
    /// global executor, outside the run's manual executor (only tasks started through
    /// `TaskSpawning` join it; the package instead hooks every global enqueue), so the run would go
    /// idle before that task's value came back. `TaskSpawningTests.bareTaskLeavesTheRunsExecutor`
    /// pins that; the two cases below are the ways to write the package's closure that stay on it.
    case capitalizedInTasks
    /// The package's closure with the run's preference passed on:
    /// `map { item in await Task(executorPreference: TaskSpawning.preferredExecutor) { … }.value }`.
    case capitalizedInPreferredTasks
    /// The package's closure with a child task, which inherits the run's executor preference:
    /// `map { item in async let upper = …; return await upper }`.
    case capitalizedInChildTasks
    /// The input itself.
    case input
    /// `map { $0.first.map { String($0) } ?? "X" }`.
    case firstLetter
    /// ``Lagging`` by 3 steps.
    case laggingThreeSteps
    /// ``ViolatingPastEnd`` giving "d" past the end.
    case producingPastEnd
    /// ``ViolatingPastEnd`` throwing past the end.
    case throwingPastEnd

    /// Runs the package's diagram pair through this operator, in the package's tokens.
    func validate(_ input: String, _ expected: String) -> MarbleResult {
        switch self {
        case .capitalizedInTasks:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                $0.inputs[0].map { $0.uppercased() }
                expected
            }
        case .capitalizedInPreferredTasks:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                $0.inputs[0].map { item in await Task(executorPreference: TaskSpawning.preferredExecutor) { item.uppercased() }.value }
                expected
            }
        case .capitalizedInChildTasks:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                $0.inputs[0].map { item in
                    async let upper = item.uppercased()
                    return await upper
                }
                expected
            }
        case .input:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                $0.inputs[0]
                expected
            }
        case .firstLetter:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                $0.inputs[0].map { $0.first.map { String($0) } ?? "X" }
                expected
            }
        case .laggingThreeSteps:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                Lagging(base: $0.inputs[0], delay: .steps(3), clock: $0.clock)
                expected
            }
        case .producingPastEnd, .throwingPastEnd:
            ReactiveAsyncTesting.validate(theme: .asyncAlgorithms) {
                input
                ViolatingPastEnd(base: $0.inputs[0], pastEnd: self == .producingPastEnd ? "d" : nil)
                expected
            }
        }
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestValidationTests.swift` (class
/// `TestValidationDiagram`), rewritten for `ReactiveAsync`'s `validate(theme: .asyncAlgorithms)`:
/// one table row per package case, with its name, its diagrams unchanged and its operator. The
/// package's failure tests expect XCTest messages ("expected \"X\" but got \"C\" at tick 6"); ours
/// check that the run does not pass and that the report names the same step and the same two
/// events (the package's tick is our 0-based step). `test_diagram_emoji` runs with its custom
/// theme type as the package writes it (`AsyncSequenceValidationTheme`).
@Suite struct TestValidationTests {
    /// The package's `test_diagram_emoji` theme, as written there (its newer form, with `⏳`).
    struct EmojiTokens: AsyncSequenceValidationTheme {
        func token(_ character: Character, inValue: Bool) -> AsyncSequenceValidationDiagram.Token {
            switch character {
            case "➖": return .step
            case "❗️": return .error
            case "❌": return .finish
            case "➡️": return .beginValue
            case "⬅️": return .endValue
            case "⏳": return .delayNext
            case " ": return .skip
            default: return .value(String(character))
            }
        }
    }

    @Test func test_diagram_emoji() {
        let result = ReactiveAsyncTesting.validate(theme: EmojiTokens()) {
            "➖🔴➖🟠➖🟡➖🟢➖❌"
            $0.inputs[0]
            "➖🔴➖🟠➖🟡➖🟢➖❌"
        }
        #expect(result.passed, "\(result)")
    }

    @Test("a custom theme's values of several characters, its failure and its delay-next token")
    func emojiThemeTokens() {
        #expect(EmojiTokens().asciiDiagram("➡️ab⬅️➖🔴 ❗️") == "'ab'-'🔴' ^")
        #expect(EmojiTokens().asciiDiagram("🔴⏳➖❌") == "'🔴',-|")
        let result = ReactiveAsyncTesting.validate(theme: EmojiTokens()) {
            "➡️ab⬅️➖🔴➖❗️"
            $0.inputs[0]
            "➡️ab⬅️➖🔴➖❗️"
        }
        #expect(result.passed, "\(result)")
    }

    @Test("a custom theme's diagram that differs fails, and the report names the step")
    func emojiThemeMismatch() {
        let result = ReactiveAsyncTesting.validate(theme: EmojiTokens()) {
            "➖🔴➖🟠➖❌"
            $0.inputs[0]
            "➖🔴➖🟢➖❌"
        }
        #expect(!result.passed)
        #expect(result.description.contains("step 3: expected '🟢', got '🟠'"), "\(result)")
    }

    @Test(
        "the package's passing diagrams",
        arguments: [
            ("test_diagram", ValidatedOperator.capitalizedInTasks, "a--b--c---|", "A--B--C---|"),
            ("test_diagram, the Task preferring the run's executor", .capitalizedInPreferredTasks, "a--b--c---|", "A--B--C---|"),
            ("test_diagram, the work in a child task", .capitalizedInChildTasks, "a--b--c---|", "A--B--C---|"),
            ("test_diagram_space_noop", .capitalizedInTasks, "    a -- b --  c       ---|", "    A- - B - - C   -  --  |     "),
            ("test_diagram_string_input", .firstLetter, "'foo''bar''baz'|", "fbb|"),
            ("test_diagram_string_input_expectation", .input, "'foo''bar''baz'|", "'foo''bar''baz'|"),
            // Tokens inside quotes are text: `-`, `^` and `|` end up in the values.
            ("test_diagram_string_dsl_contents", .input, "'foo-''bar^''baz|'|", "'foo-''bar^''baz|'|"),
            ("test_diagram_grouping_source", .input, "[abc]def|", "[abc]def|"),
            ("test_diagram_groups_of_one", .input, " a  b  c def|", "[a][b][c]def|"),
            ("test_cancel_event", .input, "a--b- -  c--|", "a--b-[;|]"),
            // The delay-next token: the consumer asks for the second x only at step 5, then at
            // once for the third; the input's finish at step 6 comes when it is due.
            ("test_delayNext", .input, "xxx---   |", "x,,,,[xx]|"),
            ("test_delayNext_initialDelay", .input, "xxx    |", ",,[xxx]|"),
            ("test_delayNext_into_emptyTick", .laggingThreeSteps, "xx|", ",,,---x--[x|]"),
            ("test_values_one_at_a_time_after_delay", .input, "xxx|", ",,,[x,][x,][x,]|"),
        ])
    func passes(name: String, operator: ValidatedOperator, input: String, expected: String) {
        let result = `operator`.validate(input, expected)
        #expect(result.passed, "\(name): \(result)")
    }

    @Test(
        "the package's failing diagrams: not passed, and the report says where",
        arguments: [
            ("test_diagram_failure_mismatch_value", ValidatedOperator.capitalizedInTasks, "a--b--c---|", "A--B--X---|", ["step 6: expected X, got C"]),
            (
                "test_diagram_failure_value_for_finish", .capitalizedInTasks, "a--b--c---|", "A--B--|",
                ["step 6: expected finished, got C", "… and 1 more step"]
            ),
            (
                "test_diagram_failure_finish_for_value", .capitalizedInTasks, "a--b--|", "A--B--C|",
                ["step 6: expected C, got finished", "step 7: expected finished, got nothing"]
            ),
            ("test_diagram_failure_finish_for_error", .capitalizedInTasks, "a--b--|", "A--B--^", ["step 6: expected a failure, got finished"]),
            ("test_diagram_failure_error_for_finish", .capitalizedInTasks, "a--b--^", "A--B--|", ["step 6: expected finished, got a failure"]),
            (
                "test_diagram_failure_value_for_error", .capitalizedInTasks, "a--b--c|", "A--B--^",
                ["step 6: expected a failure, got C", "step 7: expected nothing (the diagram had ended), got finished"]
            ),
            (
                "test_diagram_failure_error_for_value", .capitalizedInTasks, "a--b--^", "A--B--C|",
                ["step 6: expected C, got a failure", "step 7: expected finished, got nothing"]
            ),
            ("test_diagram_failure_expected_value", .capitalizedInTasks, "a--b---|", "A--B--C|", ["step 6: expected C, got no event"]),
            (
                "test_diagram_failure_expected_failure", .capitalizedInTasks, "a--b---|", "A--B--^",
                ["step 6: expected a failure, got no event", "step 7: expected nothing (the diagram had ended), got finished"]
            ),
            ("test_diagram_failure_unexpected_value", .capitalizedInTasks, "a--b--c|", "A--B---|", ["step 6: expected no event, got C"]),
            (
                "test_diagram_failure_unexpected_failure", .capitalizedInTasks, "a--b--^|", "A--B---|",
                ["step 6: expected no event, got a failure", "step 7: expected finished, got nothing"]
            ),
            ("test_diagram_parse_failure_unbalanced_group", .input, " ab|", "[ab|", ["never closed"]),
            ("test_diagram_parse_failure_nested_group", .input, "  ab|", "[[ab|", ["Invalid marble diagram"]),
            ("test_diagram_parse_failure_step_in_group", .input, "  ab|", "[a-]b|", ["a group holds events, not '-'"]),
            ("test_diagram_specification_produce_past_end", .producingPastEnd, "a--b--c--|", "a--b--c--|", ["got \"d\" after the end at step 9"]),
            ("test_diagram_specification_throw_past_end", .throwingPastEnd, "a--b--c--|", "a--b--c--|", ["got a failure after the end at step 9"]),
        ])
    func fails(name: String, operator: ValidatedOperator, input: String, expected: String, sentences: [String]) {
        let result = `operator`.validate(input, expected)
        #expect(!result.passed, "\(name)")
        for sentence in sentences {
            #expect(result.description.contains(sentence), "\(name): \(result)")
        }
    }
}
