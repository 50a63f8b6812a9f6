import Testing

import ReactiveAsync

@Suite(.hangLimit) struct AdjacentPairsTests {
    // The AdjacentPairs guide's example.
    @Test("adjacentPairs pairs each element with the next")
    func guideExample() async {
        let pairs = await [1, 2, 3, 4].async.adjacentPairs().collect()
        #expect(pairs.map(\.0) == [1, 2, 3])
        #expect(pairs.map(\.1) == [2, 3, 4])
    }

    // The AdjacentPairs guide: fewer than two elements give no pair.
    @Test("adjacentPairs of an empty or one-element base is empty")
    func empty() async {
        #expect(await [Int]().async.adjacentPairs().collect().isEmpty)
        #expect(await [1].async.adjacentPairs().collect().isEmpty)
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base failure ends adjacentPairs with the error")
    func failure() async throws {
        var iterator = failing(after: [1, 2]).adjacentPairs().makeAsyncIterator()
        #expect(try await iterator.next()?.1 == 2)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends adjacentPairs")
    func cancellation() async {
        let received: [[Int]] = await outputsUntilCancelled(feeding: [1, 2]) { $0.adjacentPairs().map { [$0.0, $0.1] } }
        #expect(received == [[1, 2]])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("adjacentPairs matches zipping an array with its tail", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...30, in: 0...9)
        let model = Array(Swift.zip(values, values.dropFirst()))
        let pairs = await values.async.adjacentPairs().collect()
        #expect(pairs.map(\.0) == model.map(\.0))
        #expect(pairs.map(\.1) == model.map(\.1))
    }
}
