import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// An inner sequence that gives `first` at once and `second` two steps later on `clock` (the
/// package's inner stream that yields, sleeps 10 ms, yields again).
private struct TwoValues: AsyncSequence, Sendable {
    let first: String
    let second: String
    let clock: ManualClock

    struct Iterator: AsyncIteratorProtocol {
        let values: TwoValues
        var given = 0

        mutating func next() async throws -> String? {
            given += 1
            switch given {
            case 1: return values.first
            case 2:
                try await values.clock.sleep(until: values.clock.now.advanced(by: .steps(2)))
                return values.second
            default: return nil
            }
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(values: self) }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestFlatMapLatest.swift`, rewritten for
/// `ReactiveAsync`. The package's tests that wait on real sleeps (10 ms between values, flags
/// polled for 2 s) are drawn as diagrams on the virtual clock instead, where the validator also
/// checks that no base or inner sequence is still iterated at the end (the package's
/// "was cancelled" flags). Not rewritten: `test_concurrency_crash_repro` (a timing-dependent crash
/// hunt; the stress suite `ShareStressTests`/`CombiningStressTests` does that job here).
@Suite(.hangLimit) struct TestFlatMapLatest: AsyncAlgorithmsValidation {
    @Test func test_simple_sequence() async throws {
        let results = try await Array([1, 2, 3].async.flatMapLatest { [$0, $0 * 10].async })
        #expect(results.contains(3) && results.contains(30))
        #expect(results.suffix(2) == [3, 30])
    }

    // Each new outer value ends the inner sequence before its second value: never 10 or 20.
    @Test func test_interleaving_race_condition() {
        validate { test in
            "123|"
            test.inputs[0].flatMapLatest { TwoValues(first: $0, second: $0 + "0", clock: test.clock) }
            "123-['30'|]"
        }
    }

    @Test func test_outer_throwing() {
        validate {
            "1-^"
            $0.inputs[0].flatMapLatest { [$0, $0 + "0"].async }
            "['1''10']-^"
        }
    }

    @Test func test_inner_throwing() {
        validate {
            "1-2-3|"
            $0.inputs[0].flatMapLatest { [$0].async.map { try throwOn("2", $0) } }
            "1-^"
        }
    }

    @Test func test_cancellation() async {
        let transformed = [1, 2, 3].async.flatMapLatest { [$0].async }
        let task = Task { for try await _ in transformed {} }
        task.cancel()
        if case .failure(let error) = await task.result {
            #expect(error is CancellationError)
        }
    }

    @Test func test_empty_outer() async throws {
        #expect(try await Array([Int]().async.flatMapLatest { [$0].async }).isEmpty)
    }

    @Test func test_empty_inner() async throws {
        #expect(try await Array([1, 2, 3].async.flatMapLatest { _ in [Int]().async }).isEmpty)
    }

    // The inner sequence never ends; cancelling the consumer must end it (the validator counts
    // inputs still iterated).
    @Test func test_consumer_cancellation_cancels_inner() {
        validate { test in
            "1-----"
            "------"
            test.inputs[0].flatMapLatest { _ in test.inputs[1] }
            "---[;|]"
        }
    }

    // The inner sequence fails at step 1: the failure comes out and the endless outer is ended.
    @Test func test_inner_throwing_cancels_outer() {
        validate { test in
            "1-------"
            "-^"
            test.inputs[0].flatMapLatest { _ in test.inputs[1] }
            "-^"
        }
    }

    // The outer sequence fails at step 3 while the inner one runs: the failure comes out and the
    // inner is ended.
    @Test func test_outer_throwing_cancels_inner() {
        validate { test in
            "1--^"
            "--------"
            test.inputs[0].flatMapLatest { _ in test.inputs[1] }
            "---^"
        }
    }
}
