import Testing

import ReactiveAsync

@Suite(.hangLimit) struct ReductionsTests {
    // The Reductions guide: the exclusive form starts from the initial value and does not emit it;
    // the inclusive form starts with the first element.
    @Test("reductions emits every running value")
    func guideExample() async {
        #expect(await [1, 2, 3, 4].async.reductions(+).collect() == [1, 3, 6, 10])
        #expect(await [1, 2, 3, 4].async.reductions(10, +).collect() == [11, 13, 16, 20])
        let histories = await [1, 2, 3].async.reductions(into: [Int]()) { $0.append($1) }.collect()
        #expect(histories == [[1], [1, 2], [1, 2, 3]])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("reductions of an empty base is empty; the initial value is not emitted")
    func empty() async {
        #expect(await [Int]().async.reductions(+).collect().isEmpty)
        #expect(await [Int]().async.reductions(0, +).collect().isEmpty)
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base failure or a throwing transform ends reductions with the error")
    func failure() async throws {
        var iterator = failing(after: [1, 2]).reductions(0, +).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 3)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        let transform: @Sendable (Int, Int) async throws -> Int = { sum, next in
            if next == 3 { throw TestFailure(id: 2) }
            return sum + next
        }
        var inclusive = [1, 2, 3, 4].async.reductions(transform).makeAsyncIterator()
        #expect(try await inclusive.next() == 1)
        #expect(try await inclusive.next() == 3)
        await #expect(throws: TestFailure(id: 2)) { try await inclusive.next() }
        #expect(try await inclusive.next() == nil)
        var exclusive = [1, 2, 3, 4].async.reductions(0, transform).makeAsyncIterator()
        #expect(try await exclusive.next() == 1)
        #expect(try await exclusive.next() == 3)
        await #expect(throws: TestFailure(id: 2)) { try await exclusive.next() }
        #expect(try await exclusive.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends reductions")
    func cancellation() async {
        let received: [Int] = await outputsUntilCancelled(feeding: [1]) { $0.reductions(+) }
        #expect(received == [1])
    }

    // A plain synchronous model of the same operator, on inputs from a seeded generator.
    @Test("reductions match a running sum over an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...30, in: 0...9)
        var sums: [Int] = []
        for value in values { sums.append((sums.last ?? 0) + value) }
        #expect(await values.async.reductions(+).collect() == sums)
        #expect(await values.async.reductions(5, +).collect() == sums.map { $0 + 5 })
    }
}
