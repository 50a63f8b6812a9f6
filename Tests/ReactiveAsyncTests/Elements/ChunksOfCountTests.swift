import Testing

import ReactiveAsync

@Suite(.hangLimit) struct ChunksOfCountTests {
    // The Chunked guide: chunks of the given count; the last holds what is left.
    @Test("chunks(ofCount:) groups elements by count, the last chunk holding the rest")
    func guideExample() async {
        #expect(await [1, 2, 3, 4, 5].async.chunks(ofCount: 2).collect() == [[1, 2], [3, 4], [5]])
        #expect(await [1, 2, 3, 4].async.chunks(ofCount: 2).collect() == [[1, 2], [3, 4]])
        let contiguous = await "abcde".async.chunks(ofCount: 3, into: String.self).collect()
        #expect(contiguous == ["abc", "de"])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("chunks(ofCount:) of an empty base is empty")
    func empty() async {
        #expect(await [Int]().async.chunks(ofCount: 3).collect().isEmpty)
    }

    // Pinned here: a base's error drops the partial chunk and ends the sequence.
    @Test("a base failure drops the partial chunk and ends the sequence")
    func failure() async throws {
        var iterator = failing(after: [1, 2, 3]).chunks(ofCount: 2).makeAsyncIterator()
        #expect(try await iterator.next() == [1, 2])
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    // Issue 42: no element after cancellation; unlike the package, the partial chunk is dropped.
    @Test("cancelling the consumer ends the sequence without a partial chunk")
    func cancellation() async {
        let received: [[Int]] = await outputsUntilCancelled(feeding: [1, 2, 3]) { $0.chunks(ofCount: 2) }
        #expect(received == [[1, 2]])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("chunks(ofCount:) matches slicing an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...40, in: 0...9)
        let count = Int.random(in: 1...5, using: &random)
        let model = stride(from: 0, to: values.count, by: count).map { Array(values[$0..<min($0 + count, values.count)]) }
        #expect(await values.async.chunks(ofCount: count).collect() == model)
    }
}
