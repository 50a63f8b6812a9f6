import Testing

import ReactiveAsync

@Suite(.hangLimit) struct JoinedTests {
    // The Joined guide: the inner sequences' elements, one inner sequence after the other.
    @Test("joined concatenates the inner sequences")
    func concatenates() async {
        #expect(await [[1, 2].async, [Int]().async, [3].async].async.joined().collect() == [1, 2, 3])
    }

    // The Joined guide and the package's source: the separator goes between inner sequences only,
    // also around an empty one, and is read once.
    @Test("joined(separator:) puts the separator's elements between inner sequences")
    func separator() async {
        let words = ["ab".async, "cd".async].async
        #expect(await String(words.joined(separator: ", ".async)) == "ab, cd")
        let numbers = await [[1].async, [Int]().async, [2].async].async.joined(separator: [0].async).collect()
        #expect(numbers == [1, 0, 0, 2])
    }

    // The package's source, as read: a separator goes out only before a following inner sequence.
    @Test("joined of no inner sequences is empty, and a single one gets no separator")
    func empty() async {
        #expect(await [AsyncSyncSequence<[Int]>]().async.joined().collect().isEmpty)
        #expect(await [[1, 2].async].async.joined(separator: [0].async).collect() == [1, 2])
    }

    // The package's AsyncJoinedBySeparatorSequence moves to its terminal state on any error (its source, as read).
    @Test("an inner sequence's failure ends joined with the error")
    func failure() async throws {
        var iterator = [failing(after: [1]), failing(after: [2])].async.joined().makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: TestFailure(id: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        var separated = [failing(after: [1]), failing(after: [2])].async.joined(separator: [0].async).makeAsyncIterator()
        #expect(try await separated.next() == 1)
        await #expect(throws: TestFailure(id: 1)) { try await separated.next() }
        #expect(try await separated.next() == nil)
    }

    // Issue 42 asks for no element after cancellation; like chain, joined does not start the next
    // inner sequence once its consumer is cancelled.
    @Test("a cancelled joined does not start its next inner sequence")
    func cancellation() async {
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let received: [Int] = await cancelledAfterFirst(input: firstInput) {
            [first, AsyncStream { $0.yield(9) }].async.joined()
        }
        #expect(received == [1])
        let (again, againInput) = AsyncStream.makeStream(of: Int.self)
        let separated: [Int] = await cancelledAfterFirst(input: againInput) {
            [again, AsyncStream { $0.yield(9) }].async.joined(separator: [0].async)
        }
        #expect(separated == [1])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("joined matches flattening arrays", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let parts = (0..<Int.random(in: 0...6, using: &random)).map { _ in randomValues(&random, count: 0...5, in: 1...9) }
        #expect(await parts.map(\.async).async.joined().collect() == parts.flatMap { $0 })
        #expect(await parts.map(\.async).async.joined(separator: [0, 0].async).collect() == Array(parts.joined(separator: [0, 0])))
    }

    /// Feeds 1 into `input`, cancels the consumer of `make()` after its first element, returns what it got.
    private func cancelledAfterFirst<Joined: AsyncSequence & Sendable>(
        input: AsyncStream<Int>.Continuation,
        _ make: () -> Joined
    ) async -> [Int] where Joined.Element == Int, Joined.Failure == Never {
        let joined = make()
        let (delivered, deliveredInput) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var received: [Int] = []
            for await value in joined {
                received.append(value)
                deliveredInput.yield()
            }
            return received
        }
        input.yield(1)
        var signals = delivered.makeAsyncIterator()
        await signals.next()
        consumer.cancel()
        return await consumer.value
    }
}
