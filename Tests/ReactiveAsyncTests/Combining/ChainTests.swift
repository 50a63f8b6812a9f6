import Testing

@testable import ReactiveAsync

@Suite(.hangLimit) struct ChainTests {
    // The Chain guide: the elements of the first base, then those of the second.
    @Test("chain emits the first base's elements, then the second's")
    func firstThenSecond() async {
        #expect(await chain([1, 2, 3].async, [4, 5, 6].async).collect() == [1, 2, 3, 4, 5, 6])
        #expect(await chain([1].async, [Int]().async, [2, 3].async).collect() == [1, 2, 3])
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("chain of empty bases is empty")
    func empty() async {
        #expect(await chain([Int]().async, [Int]().async).collect().isEmpty)
    }

    // The Chain guide: an error from a base ends the chained sequence.
    @Test("a failure of the first base ends the chain before the second base")
    func failure() async throws {
        let (failing, failingInput) = AsyncThrowingStream.makeStream(of: Int.self)
        failingInput.yield(1)
        failingInput.finish(throwing: TestFailure())
        var iterator = chain(failing, [2, 3].async).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: TestFailure()) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    // Issue 42 (observed in the package): a cancelled chain moves on to its second base and emits
    // from it. Here the chain ends where it was cancelled.
    @Test("a cancelled chain does not move on to its next base")
    func cancellationDoesNotMoveOn() async {
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let (delivered, deliveredInput) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var received: [Int] = []
            for await value in chain(first, [9, 9].async, [8].async) {
                received.append(value)
                deliveredInput.yield()
            }
            return received
        }
        firstInput.yield(1)
        var signals = delivered.makeAsyncIterator()
        await signals.next()
        consumer.cancel()
        #expect(await consumer.value == [1])
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test("chain matches array concatenation on generated inputs", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let parts = (0..<3).map { _ in (0..<Int.random(in: 0...10, using: &random)).map { _ in Int.random(in: 0...9, using: &random) } }
        #expect(await chain(parts[0].async, parts[1].async).collect() == parts[0] + parts[1])
        #expect(await chain(parts[0].async, parts[1].async, parts[2].async).collect() == parts[0] + parts[1] + parts[2])
    }
}
