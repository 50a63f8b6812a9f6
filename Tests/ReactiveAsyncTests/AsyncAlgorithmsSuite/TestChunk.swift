import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// The first character of a one-character-or-more diagram value (the package writes `$0.first!`).
private func first(_ value: String) -> Character { value.first ?? " " }

/// The chunking operators of the package's chunk tests over one input, each chunk drawn as its
/// characters joined (`concatCharacters`) or its digits summed (`sumCharacters`).
enum OneInputChunking: Sendable {
    /// `chunks(ofCount:)`.
    case count(Int)
    /// `chunks(ofCount:)`, summed.
    case countSummed(Int)
    /// `chunked(by: .repeating(every: .steps(n), clock:))`.
    case timer(steps: Int)
    /// The same, summed.
    case timerSummed(steps: Int)
    /// `chunks(ofCount:or: .repeating(every: .steps(n), clock:))`.
    case countOrTimer(Int, steps: Int)
    /// `chunked(by:)` keeping runs of the same case together.
    case sameCase
    /// `chunked(by: { _, _ in true })`: one chunk.
    case oneChunk
    /// `chunked(on:)` by the lowercased first character; each chunk drawn as its first characters.
    case lowercasedFirst
    /// `chunked(on: { _ in 42 })`: one chunk.
    case constantProjection

    /// Runs the package's diagram pair through this operator, in the package's tokens.
    func expect(_ name: String, _ input: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch self {
        case .count(let count):
            expectValid(name, input, expected, sourceLocation: sourceLocation) { $0.inputs[0].chunks(ofCount: count).map(concatCharacters) }
        case .countSummed(let count):
            expectValid(name, input, expected, sourceLocation: sourceLocation) { $0.inputs[0].chunks(ofCount: count).map(sumCharacters) }
        case .timer(let steps):
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunked(by: .repeating(every: .steps(steps), clock: $0.clock)).map(concatCharacters)
            }
        case .timerSummed(let steps):
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunked(by: .repeating(every: .steps(steps), clock: $0.clock)).map(sumCharacters)
            }
        case .countOrTimer(let count, let steps):
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunks(ofCount: count, or: .repeating(every: .steps(steps), clock: $0.clock)).map(concatCharacters)
            }
        case .sameCase:
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunked(by: { first($0).isUppercase == first($1).isUppercase }).map(concatCharacters)
            }
        case .oneChunk:
            expectValid(name, input, expected, sourceLocation: sourceLocation) { $0.inputs[0].chunked(by: { _, _ in true }).map(concatCharacters) }
        case .lowercasedFirst:
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunked(on: { first($0).lowercased() }).map { concatCharacters($0.1.map { String(first($0)) }) }
            }
        case .constantProjection:
            expectValid(name, input, expected, sourceLocation: sourceLocation) {
                $0.inputs[0].chunked(on: { _ in 42 }).map { concatCharacters($0.1.map { String(first($0)) }) }
            }
        }
    }
}

/// The chunking operators of the package's chunk tests with a signal (the second input).
enum SignalledChunking: Sendable {
    /// `chunked(by: signal)`.
    case signal
    /// `chunked(by: signal)`, summed.
    case signalSummed
    /// `chunks(ofCount:or: signal)`.
    case countOrSignal(Int)

    /// Runs the package's diagrams (input, signal, expected) through this operator.
    func expect(_ name: String, _ input: String, _ signal: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let result: MarbleResult
        switch self {
        case .signal:
            result = validate(theme: .asyncAlgorithms) {
                input
                signal
                $0.inputs[0].chunked(by: $0.inputs[1]).map(concatCharacters)
                expected
            }
        case .signalSummed:
            result = validate(theme: .asyncAlgorithms) {
                input
                signal
                $0.inputs[0].chunked(by: $0.inputs[1]).map(sumCharacters)
                expected
            }
        case .countOrSignal(let count):
            result = validate(theme: .asyncAlgorithms) {
                input
                signal
                $0.inputs[0].chunks(ofCount: count, or: $0.inputs[1]).map(concatCharacters)
                expected
            }
        }
        #expect(result.passed, "\(name): \(result)", sourceLocation: sourceLocation)
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestChunk.swift`, rewritten for
/// `ReactiveAsync` as tables: one row per package test, with its name, its diagrams unchanged
/// (the package's expected output) and its operator; force unwraps of the package's closures
/// replaced by ``first(_:)``.
@Suite struct TestChunk {
    @Test(
        "the package's chunk diagrams over one input (name, operator, input, expected)",
        arguments: [
            ("test_count_one", OneInputChunking.count(1), "ABCDE|", "ABCDE|"),
            ("test_count", .count(3), "ABC    DEF    |", "--'ABC'--'DEF'|"),
            ("test_count_nonuniformTiming", .count(3), "A--B-C    --DE-F    |", "-----'ABC'-----'DEF'|"),
            ("test_count_trailingChunk", .countSummed(3), "11111|", "--3--[2|]"),
            ("test_count_error", .count(3), "AB^", "--^"),
            ("test_time_equalChunks", .timer(steps: 4), "ABC-    DEF-    GHI-     |", "---'ABC'---'DEF'---'GHI'|"),
            (
                "test_time_unequalChunks", .timer(steps: 8), "AB------    A------- ABCDEFG-         |",
                "-------'AB' -------A -------'ABCDEFG'|"
            ),
            ("test_time_emptyChunks", .timer(steps: 2), "-- 1- --|", "-- -1 --|"),
            ("test_time_error", .timer(steps: 5), "AB^", "--^"),
            ("test_time_unsignaledTrailingChunk", .timerSummed(steps: 4), "111-111|", "---3---[3|]"),
            (
                "test_timeAndCount_timeAlwaysPrevails", .countOrTimer(42, steps: 8), "AB------    A------- ABCDEFG-         |",
                "-------'AB' -------A -------'ABCDEFG'|"
            ),
            ("test_timeAndCount_countAlwaysPrevails", .countOrTimer(2, steps: 8), "AB   --A-B   -|", "-'AB'----'AB'-|"),
            (
                "test_timeAndCount_countResetsAfterCount", .countOrTimer(5, steps: 8), "ABCDE      --- ABCDE      |",
                "----'ABCDE'--- ----'ABCDE'|"
            ),
            ("test_timeAndCount_countResetsAfterSignal", .countOrTimer(5, steps: 8), "AB------    ABCDE      |", "-------'AB' ----'ABCDE'|"),
            ("test_timeAndCount_error", .countOrTimer(5, steps: 8), "ABC^", "---^"),
            ("test_group", .sameCase, "ABC    def    GH   ij   Kl|", "---'ABC'--'def'-'GH'-'ij'K[l|]"),
            ("test_group_singleValue", .sameCase, "A----|", "-----[A|]"),
            ("test_group_singleGroup", .oneChunk, "ABCDE|", "-----['ABCDE'|]"),
            ("test_group_error", .sameCase, "AB^", "--^"),
            ("test_projection", .lowercasedFirst, "A'Aa''ab'    b'BB''bb'    'cc''CC'      |", "--   -   'AAa' -  -   'bBb'   -   ['cC'|]"),
            ("test_projection_singleValue", .lowercasedFirst, "A----|", "-----[A|]"),
            ("test_projection_singleGroup", .constantProjection, "ABCDE|", "-----['ABCDE'|]"),
            ("test_projection_error", .lowercasedFirst, "Aa^", "--^"),
        ])
    func oneInput(name: String, operator: OneInputChunking, input: String, expected: String) {
        `operator`.expect(name, input, expected)
    }

    @Test(
        "the package's chunk diagrams with a signal (name, operator, input, signal, expected)",
        arguments: [
            ("test_signal_equalChunks", SignalledChunking.signal, "ABC-    DEF-    GHI-     |", "---X    ---X    ---X    |", "---'ABC'---'DEF'---'GHI'|"),
            ("test_signal_unequalChunks", .signal, "AB-   A-ABCDEFGH-         |", "--X   -X--------X         |", "--'AB'-A--------'ABCDEFGH'|"),
            ("test_signal_emptyChunks", .signal, "--1--|", "XX-XX|", "---1-|"),
            ("test_signal_error", .signal, "AB^", "---X|", "--^"),
            ("test_signal_unsignaledTrailingChunk", .signalSummed, "111-111|", "---X---|", "---3---[3|]"),
            (
                "test_signalAndCount_signalAlwaysPrevails", .countOrSignal(42), "AB-   A-ABCDEFGH-         |", "--X   -X--------X         |",
                "--'AB'-A--------'ABCDEFGH'|"
            ),
            ("test_signalAndCount_countAlwaysPrevails", .countOrSignal(2), "AB   --A-B   -|", "--   X----   X|", "-'AB'----'AB'-|"),
            (
                "test_signalAndCount_countResetsAfterCount", .countOrSignal(5), "ABCDE      -ABCDE      |", "-----      ------      |",
                "----'ABCDE'-----'ABCDE'|"
            ),
            ("test_signalAndCount_countResetsAfterSignal", .countOrSignal(5), "AB-   ABCDE      |", "--X   -----      |", "--'AB'----'ABCDE'|"),
            ("test_signalAndCount_error", .countOrSignal(5), "ABC^", "----X|", "---^"),
        ])
    func signalled(name: String, operator: SignalledChunking, input: String, signal: String, expected: String) {
        `operator`.expect(name, input, signal, expected)
    }
}
