import Testing

import ReactiveAsync

@Suite struct AsyncSyncSequenceTests {
    // The package's AsyncSyncSequence: the base's elements in order; a finished iterator stays finished (its source, as read).
    @Test("a sequence's elements come out of .async in order, then nil forever")
    func elementsInOrder() async {
        var iterator = [1, 2, 3].async.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    // The guide's definition applied to no input; pinned here (nothing to emit, the sequence ends).
    @Test("an empty sequence's .async is empty")
    func empty() async {
        #expect(await [Int]().async.collect().isEmpty)
    }

    // The package's AsyncSyncSequence.Iterator checks Task.isCancelled before each element
    // (its source, as read).
    @Test(".async ends when the consuming task is cancelled")
    func cancellation() async {
        let (gate, gateInput) = AsyncStream.makeStream(of: Void.self)
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var count = 0
            var gateIterator = gate.makeAsyncIterator()
            for await _ in (1...).async {
                count += 1
                if count == 1 {
                    startedInput.yield()
                    await gateIterator.next()
                }
            }
            return count
        }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        consumer.cancel()
        gateInput.yield()
        #expect(await consumer.value == 1)
    }

    // A plain synchronous model of the same operator over arrays, on inputs from a seeded generator.
    @Test(".async matches the sequence on generated inputs", arguments: [1, 2, 3] as [UInt64])
    func matchesModel(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        let values = (0..<Int.random(in: 0...50, using: &random)).map { _ in Int.random(in: 0...99, using: &random) }
        #expect(await values.async.collect() == values)
    }
}
