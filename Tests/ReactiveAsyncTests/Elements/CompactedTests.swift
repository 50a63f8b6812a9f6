import Testing

import ReactiveAsync

@Suite(.hangLimit) struct CompactedTests {
    // The Compacted guide's example.
    @Test("compacted drops the nil elements and unwraps the rest")
    func guideExample() async {
        #expect(await [1, nil, 2, nil, 3].async.compacted().collect() == [1, 2, 3])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("compacted of an empty or all-nil base is empty")
    func empty() async {
        #expect(await [Int?]().async.compacted().collect().isEmpty)
        #expect(await [nil, nil].async.compacted().collect() as [Int] == [])
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base failure ends compacted with the error")
    func failure() async throws {
        var iterator = failing(after: [1, nil] as [Int?]).compacted().makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends compacted")
    func cancellation() async {
        let received: [Int] = await outputsUntilCancelled(feeding: [1, 2]) { $0.map { $0 == 2 ? nil : $0 }.compacted() }
        #expect(received == [1])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("compacted matches compactMap on an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values: [Int?] = randomValues(&random, count: 0...30, in: 0...5).map { $0 == 0 ? nil : $0 }
        #expect(await values.async.compacted().collect() == values.compactMap { $0 })
    }
}
