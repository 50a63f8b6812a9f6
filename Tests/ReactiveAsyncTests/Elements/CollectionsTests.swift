import Testing

import ReactiveAsync

@Suite struct CollectionsTests {
    // The Collections guide: the initializers collect the whole sequence.
    @Test("Array, Set and Dictionary are built from an async sequence")
    func build() async {
        #expect(await Array([1, 2, 3].async) == [1, 2, 3])
        #expect(await ContiguousArray("abc".async) == ["a", "b", "c"])
        #expect(await Set([1, 2, 1].async) == [1, 2])
        let ages = await Dictionary(uniqueKeysWithValues: [("Ada", 36), ("Alan", 41)].async)
        #expect(ages == ["Ada": 36, "Alan": 41])
        let totals = await Dictionary([("a", 1), ("b", 2), ("a", 3)].async, uniquingKeysWith: +)
        #expect(totals == ["a": 4, "b": 2])
        let firstWins = await Dictionary([("a", 1), ("a", 3)].async) { kept, _ in kept }
        #expect(firstWins == ["a": 1])
        let byParity = await Dictionary(grouping: [1, 2, 3, 4, 5].async, by: { $0 % 2 })
        #expect(byParity == [1: [1, 3, 5], 0: [2, 4]])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("an empty async sequence gives empty collections")
    func empty() async {
        #expect(await Array([Int]().async).isEmpty)
        #expect(await Set([Int]().async).isEmpty)
        #expect(await Dictionary(grouping: [Int]().async, by: { $0 }).isEmpty)
    }

    // Pinned here as the package's interspersed and joined iterators do (their sources, as read): an error ends it.
    @Test("a failure of the sequence or of a closure is rethrown")
    func failure() async {
        await #expect(throws: TestFailure(id: 1)) { try await Array(failing(after: [1, 2])) }
        await #expect(throws: TestFailure(id: 1)) { try await Set(failing(after: [1, 2])) }
        await #expect(throws: TestFailure(id: 3)) {
            try await Dictionary(grouping: [1, 2].async, by: { (_: Int) throws -> Int in throw TestFailure(id: 3) })
        }
        await #expect(throws: TestFailure(id: 4)) {
            try await Dictionary([("a", 1), ("a", 2)].async, uniquingKeysWith: { (_: Int, _: Int) throws -> Int in throw TestFailure(id: 4) })
        }
    }

    // A plain synchronous model of the same operator, on inputs from a seeded generator.
    @Test("the collections match their synchronous initializers", arguments: [1, 2, 3] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = randomValues(&random, count: 0...40, in: 0...9)
        #expect(await Array(values.async) == values)
        #expect(await Set(values.async) == Set(values))
        #expect(await Dictionary(grouping: values.async, by: { $0 % 3 }) == Dictionary(grouping: values, by: { $0 % 3 }))
        let pairs = values.map { ($0 % 4, $0) }
        #expect(await Dictionary(pairs.async, uniquingKeysWith: +) == Dictionary(pairs, uniquingKeysWith: +))
    }
}
