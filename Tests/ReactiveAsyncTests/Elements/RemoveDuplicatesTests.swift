import Testing

import ReactiveAsync

@Suite(.hangLimit) struct RemoveDuplicatesTests {
    // The RemoveDuplicates guide: consecutive repeats go, later repeats stay.
    @Test("removeDuplicates drops elements equal to the one before")
    func guideExample() async {
        #expect(await [1, 1, 2, 2, 2, 3, 1].async.removeDuplicates().collect() == [1, 2, 3, 1])
        let close = await [1, 2, 5, 6, 10].async.removeDuplicates { abs($0 - $1) < 2 }.collect()
        #expect(close == [1, 5, 10])
    }

    // The package's iterator compares with the last element it emitted (its source, as read).
    @Test("the predicate compares with the last emitted element, not the last read")
    func comparesWithLastEmitted() async {
        #expect(await [1, 2, 3, 4].async.removeDuplicates { $1 - $0 < 2 }.collect() == [1, 3])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("removeDuplicates of an empty base is empty")
    func empty() async {
        #expect(await [Int]().async.removeDuplicates().collect().isEmpty)
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base failure or a throwing predicate ends removeDuplicates with the error")
    func failure() async throws {
        var iterator = failing(after: [1, 1, 2]).removeDuplicates().makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        let predicate: @Sendable (Int, Int) async throws -> Bool = { _, next in
            if next == 3 { throw TestFailure(id: 2) }
            return false
        }
        var throwing = [1, 2, 3, 4].async.removeDuplicates(by: predicate).makeAsyncIterator()
        #expect(try await throwing.next() == 1)
        #expect(try await throwing.next() == 2)
        await #expect(throws: TestFailure(id: 2)) { try await throwing.next() }
        #expect(try await throwing.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends removeDuplicates")
    func cancellation() async {
        let received: [Int] = await outputsUntilCancelled(feeding: [1, 1]) { $0.removeDuplicates() }
        #expect(received == [1])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("removeDuplicates matches a loop over an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...40, in: 0...3)
        var model: [Int] = []
        for value in values where model.last != value { model.append(value) }
        #expect(await values.async.removeDuplicates().collect() == model)
    }
}
