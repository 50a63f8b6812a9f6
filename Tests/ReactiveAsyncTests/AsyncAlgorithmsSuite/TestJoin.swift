import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// The package's `nestedAsync`: each inner array as an async sequence, the whole as one.
private func nested(_ arrays: [[Int]]) -> AsyncSyncSequence<[AsyncSyncSequence<[Int]>]> {
    arrays.map(\.async).async
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestJoin.swift`, rewritten for
/// `ReactiveAsync`: `joined(separator:)` over the package's nested arrays, its expected elements,
/// nil past the end.
@Suite(.hangLimit) struct TestJoin {
    @Test func test_join() async {
        let expected = [1, 2, 3, -1, -2, -3, 4, 5, 6, -1, -2, -3, 7, 8, 9]
        await expectDrained(nested([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).joined(separator: [-1, -2, -3].async), expected)
    }

    @Test func test_join_single_sequence() async {
        await expectDrained(nested([[1, 2, 3]]).joined(separator: [-1, -2, -3].async), [1, 2, 3])
    }

    @Test func test_join_empty() async {
        await expectDrained(nested([]).joined(separator: [-1, -2, -3].async), [])
    }

    // The package's `nestedAsync(throwsOn: 5)`: every inner sequence throws on 5.
    @Test func test_throwing() async {
        let inners = [[1, 2, 3], [4, 5, 6]].map { $0.async.map { try throwOn(5, $0) } }.async
        await expectDrained(inners.joined(separator: [-1, -2, -3].async), [1, 2, 3, -1, -2, -3, 4], fails: true)
    }

    @Test func test_throwing_separator() async {
        let separator = [-1, -2, -3].async.map { try throwOn(-2, $0) }
        await expectDrained(nested([[1, 2, 3], [4, 5, 6]]).joined(separator: separator), [1, 2, 3, -1], fails: true)
    }

    @Test func test_cancellation() async {
        let sequence = [Indefinite(value: "test").async].async.joined(separator: ["past indefinite"].async)
        #expect(await lastElementBeforeCancellationEnds(sequence) == "test")
    }

    // Not in the package: `joined()` without a separator, the package's guide's example shape.
    @Test func joined_without_separator() async {
        await expectDrained(nested([[1, 2], [], [3]]).joined(), [1, 2, 3])
    }
}
