import Testing

import ReactiveAsync

@Suite(.hangLimit) struct ChunkedTests {
    // The Chunked guide's example: runs where each element is >= the one before.
    @Test("chunked(by:) closes a run when the predicate of the last element and the next is false")
    func byGuideExample() async {
        let runs = await [10, 20, 30, 10, 40, 40, 10, 20].async.chunked { $0 <= $1 }.collect()
        #expect(runs == [[10, 20, 30], [10, 40, 40], [10, 20]])
    }

    // The Chunked guide: chunked(on:) pairs each run with its projection.
    @Test("chunked(on:) groups consecutive elements with equal projections")
    func onGuideExample() async {
        let runs = await ["Ada", "Alan", "Bea", "Alice"].async.chunked(on: \.first).collect()
        #expect(runs.map(\.0) == ["A", "B", "A"])
        #expect(runs.map(\.1) == [["Ada", "Alan"], ["Bea"], ["Alice"]])
        let strings = await [1, 3, 2, 4, 5].async.chunked(into: ContiguousArray.self, on: { $0 % 2 }).collect()
        #expect(strings.map(\.1) == [[1, 3], [2, 4], [5]])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("chunked of an empty base is empty")
    func empty() async {
        #expect(await [Int]().async.chunked { $0 == $1 }.collect().isEmpty)
        #expect(await [Int]().async.chunked(on: { $0 }).collect().isEmpty)
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a base failure ends chunked with the error, dropping the open run")
    func failure() async throws {
        var byGroup = failing(after: [1, 1, 2]).chunked { $0 == $1 }.makeAsyncIterator()
        #expect(try await byGroup.next() == [1, 1])
        await #expect(throws: TestFailure(id: 1)) { try await byGroup.next() }
        #expect(try await byGroup.next() == nil)
        var onProjection = failing(after: [1, 1, 2]).chunked(on: { $0 }).makeAsyncIterator()
        #expect(try await onProjection.next()?.1 == [1, 1])
        await #expect(throws: TestFailure(id: 1)) { try await onProjection.next() }
        #expect(try await onProjection.next() == nil)
    }

    // Issue 42: no element after cancellation; the base (an AsyncStream) ends on cancel and the operator adds nothing.
    @Test("cancelling the consumer ends chunked without the open run")
    func cancellation() async {
        let byGroup: [[Int]] = await outputsUntilCancelled(feeding: [1, 1, 2, 2]) { $0.chunked { $0 == $1 } }
        #expect(byGroup == [[1, 1]])
        let onProjection: [[Int]] = await outputsUntilCancelled(feeding: [1, 1, 2, 2]) { $0.chunked(on: { $0 }).map(\.1) }
        #expect(onProjection == [[1, 1]])
    }

    // A plain synchronous model of the same operator, on inputs from a seeded generator.
    @Test("chunked(by:) and chunked(on:) match a loop over an array", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...40, in: 0...3)
        var model: [[Int]] = []
        for value in values {
            if let last = model.last?.last, last == value { model[model.count - 1].append(value) } else { model.append([value]) }
        }
        #expect(await values.async.chunked { $0 == $1 }.collect() == model)
        #expect(await values.async.chunked(on: { $0 }).collect().map(\.1) == model)
    }
}
