import Testing

import ReactiveAsync

@Suite(.hangLimit) struct InterspersedTests {
    // The Intersperse guide's examples.
    @Test("interspersed puts the separator between elements, never at the ends")
    func guideExample() async {
        #expect(await ["A", "B", "C"].async.interspersed(with: "-").collect() == ["A", "-", "B", "-", "C"])
        #expect(await [1, 2, 3, 4, 5].async.interspersed(every: 2, with: 0).collect() == [1, 2, 0, 3, 4, 0, 5])
        #expect(await [1, 2, 3, 4].async.interspersed(every: 2, with: 0).collect() == [1, 2, 0, 3, 4])
    }

    // The package's interspersed(every:with:) closure forms (its 1.x declarations, as read).
    @Test("separator closures, synchronous and asynchronous, are called per separator")
    func closures() async throws {
        #expect(await [1, 2, 3].async.interspersed(with: { 0 }).collect() == [1, 0, 2, 0, 3])
        let asyncSeparator: @Sendable () async -> Int = { 9 }
        #expect(await [1, 2].async.interspersed(with: asyncSeparator).collect() == [1, 9, 2])
        let throwingSeparator: @Sendable () throws -> Int = { 7 }
        #expect(try await [1, 2].async.interspersed(with: throwingSeparator).collect() == [1, 7, 2])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("interspersed of an empty or one-element base adds no separator")
    func empty() async {
        #expect(await [Int]().async.interspersed(with: 0).collect().isEmpty)
        #expect(await [1].async.interspersed(with: 0).collect() == [1])
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base or separator failure ends interspersed with the error")
    func failure() async throws {
        var iterator = failing(after: [1, 2]).interspersed(with: 0).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 0)
        #expect(try await iterator.next() == 2)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        let separator: @Sendable () async throws -> Int = { throw TestFailure(id: 2) }
        var throwing = [1, 2].async.interspersed(with: separator).makeAsyncIterator()
        #expect(try await throwing.next() == 1)
        await #expect(throws: TestFailure(id: 2)) { try await throwing.next() }
        #expect(try await throwing.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends interspersed")
    func cancellation() async {
        let received: [Int] = await outputsUntilCancelled(feeding: [1]) { $0.interspersed(with: 0) }
        #expect(received == [1])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("interspersed(every:) matches a loop over an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...30, in: 1...9)
        let every = Int.random(in: 1...4, using: &random)
        var model: [Int] = []
        for (index, value) in values.enumerated() {
            if index > 0 && index % every == 0 { model.append(0) }
            model.append(value)
        }
        #expect(await values.async.interspersed(every: every, with: 0).collect() == model)
    }
}
