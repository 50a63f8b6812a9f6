import Foundation
import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `TestRemoveDuplicates.swift`, rewritten for `ReactiveAsync`: the
/// package's inputs and expected arrays; its cancellation test (an endless base and XCTest
/// expectations) becomes a diagram with a cancel.
@Suite struct TestRemoveDuplicates: AsyncAlgorithmsValidation {
    @Test func test_removeDuplicates() async {
        let actual = await Array([1, 2, 2, 2, 3, 4, 5, 6, 5, 5].async.removeDuplicates())
        #expect(actual == [1, 2, 3, 4, 5, 6, 5])
    }

    @Test func test_removeDuplicates_with_closure() async {
        let actual = await Array([1, 2.001, 2.005, 2.011, 3, 4, 5, 6, 5, 5].async.removeDuplicates { abs($0 - $1) < 0.01 })
        #expect(actual == [1, 2.001, 2.011, 3, 4, 5, 6, 5])
    }

    @Test func test_removeDuplicates_with_throwing_closure() async {
        var actual: [Int] = []
        let sequence = [1, 2, 2, 2, 3, -1, 5, 6, 5, 5].async.removeDuplicates { previous, next in
            try previous == throwOn(-1, next)
        }
        do {
            for try await item in sequence { actual.append(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(actual == [1, 2, 3])
    }

    @Test func test_removeDuplicates_with_throwing_upstream() async {
        var actual: [Int] = []
        let throwing = [1, 2, 2, 2, 3, -1, 5, 6, 5, 5].async.map { try throwOn(-1, $0) }
        do {
            for try await item in throwing.removeDuplicates() { actual.append(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(actual == [1, 2, 3])
    }

    // test_removeDuplicates_cancellation: an endless base of one repeated value emits it once,
    // and cancelling ends the loop.
    @Test func test_removeDuplicates_cancellation() {
        validate {
            "aaaaaaa"
            $0.inputs[0].removeDuplicates()
            "a-----[;|]"
        }
    }

    // Not in the package: removeDuplicates on a timeline.
    @Test func test_removeDuplicates_diagram() {
        validate {
            "aab-bba-|"
            $0.inputs[0].removeDuplicates()
            "a-b---a-|"
        }
    }
}

/// swift-async-algorithms' `TestAdjacentPairs.swift`, rewritten for `ReactiveAsync`: the package's
/// inputs and expected pairs.
@Suite struct TestAdjacentPairs: AsyncAlgorithmsValidation {
    @Test func test_adjacentPairs_produces_tuples_of_adjacent_values_of_original_element() async {
        let actual = await Array([1, 2, 3, 4, 5].async.adjacentPairs()).map { [$0.0, $0.1] }
        #expect(actual == [[1, 2], [2, 3], [3, 4], [4, 5]])
    }

    @Test func test_adjacentPairs_forwards_termination_from_source_when_iteration_is_finished() async {
        var iterator = [1, 2, 3, 4].async.adjacentPairs().makeAsyncIterator()
        while await iterator.next() != nil {}
        let pastEnd = await iterator.next()
        #expect(pastEnd == nil)
    }

    @Test func test_adjacentPairs_produces_empty_sequence_when_source_sequence_is_empty() async {
        let actual = await Array([Int]().async.adjacentPairs())
        #expect(actual.isEmpty)
    }

    @Test func test_adjacentPairs_produces_empty_sequence_when_source_has_one_element() async {
        let actual = await Array([1].async.adjacentPairs())
        #expect(actual.isEmpty)
    }

    @Test func test_adjacentPairs_forwards_error_from_source_when_iteration_throws() async {
        var actual: [[Int]] = []
        do {
            for try await pair in [1, 2, 3, -1, 5].async.map({ try throwOn(-1, $0) }).adjacentPairs() { actual.append([pair.0, pair.1]) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(actual == [[1, 2], [2, 3]])
    }

    // An older version's test_cancellation: an endless base, the loop ends when cancelled.
    @Test(.hangLimit) func test_cancellation() async {
        let last = await lastElementBeforeCancellationEnds(Indefinite(value: 0).async.adjacentPairs().map { $0 + $1 })
        #expect(last == 0)
    }

    // Not in the package: a pair goes out when its second element arrives.
    @Test func test_adjacentPairs_diagram() {
        validate {
            "a-b-c|"
            $0.inputs[0].adjacentPairs().map { $0 + $1 }
            "--'ab'-'bc'|"
        }
    }
}

/// swift-async-algorithms' `Interspersed/TestInterspersed.swift`, rewritten for `ReactiveAsync`:
/// the package's inputs and expected arrays.
@Suite struct TestInterspersed: AsyncAlgorithmsValidation {
    @Test func test_interspersed() async {
        let actual = await Array([1, 2, 3, 4, 5].async.interspersed(with: 0))
        #expect(actual == [1, 0, 2, 0, 3, 0, 4, 0, 5])
    }

    @Test func test_interspersed_every() async {
        let actual = await Array([1, 2, 3, 4, 5, 6, 7, 8].async.interspersed(every: 3, with: 0))
        #expect(actual == [1, 2, 3, 0, 4, 5, 6, 0, 7, 8])
    }

    @Test func test_interspersed_closure() async {
        let actual = await Array([1, 2, 3, 4, 5].async.interspersed(with: { 0 }))
        #expect(actual == [1, 0, 2, 0, 3, 0, 4, 0, 5])
    }

    @Test func test_interspersed_async_closure() async {
        let sequence = [1, 2, 3, 4, 5].async.interspersed { () async -> Int in
            await Task.yield()
            return 0
        }
        let actual = await Array(sequence)
        #expect(actual == [1, 0, 2, 0, 3, 0, 4, 0, 5])
    }

    @Test func test_interspersed_throwing_closure() async throws {
        var actual: [Int] = []
        var iterator = [1, 2].async.interspersed(with: { () throws -> Int in throw PackageFailure() }).makeAsyncIterator()
        do {
            while let item = try await iterator.next() { actual.append(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        let pastEnd = try await iterator.next()
        #expect(pastEnd == nil)
        #expect(actual == [1])
    }

    @Test func test_interspersed_async_throwing_closure() async {
        let sequence = [1, 2].async.interspersed { () async throws -> Int in
            await Task.yield()
            throw PackageFailure()
        }
        await expectDrained(sequence, [1], fails: true)
    }

    @Test func test_interspersed_empty() async {
        let actual = await Array([Int]().async.interspersed(with: 0))
        #expect(actual.isEmpty)
    }

    @Test func test_interspersed_with_throwing_upstream() async throws {
        var actual: [Int] = []
        var iterator = [1, 2, 3, -1, 4, 5].async.map { try throwOn(-1, $0) }.interspersed(with: 0).makeAsyncIterator()
        do {
            while let item = try await iterator.next() { actual.append(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        let pastEnd = try await iterator.next()
        #expect(pastEnd == nil)
        #expect(actual == [1, 0, 2, 0, 3])
    }

    // test_cancellation: an endless base, cancelled while iterating; the loop ends.
    @Test func test_cancellation() {
        validate {
            "a-b-c-d-"
            $0.inputs[0].interspersed(with: "s")
            "a-[sb]-[sc]-[sd][;|]"
        }
    }
}
