import Testing

@testable import ReactiveAsync

/// A buffer fed from one task and consumed in another, cancelled from a third at varying moments.
@Suite(.timeLimit(.minutes(1))) struct BufferStressTests {
    @Test("cancelling the consumer from another task at any moment leaves no base iterating", arguments: BufferTests.policies)
    func cancelFromAnotherTask(name: String, policy: AsyncBufferSequencePolicy) async {
        for round in 0..<40 {
            let probe = IterationProbe()
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let buffered = InstrumentedSequence(stream, probe: probe).buffer(policy: policy)
            let producer = Task {
                var i = 0
                while !Task.isCancelled {
                    continuation.yield(i)
                    i += 1
                    if i % 8 == 0 { await Task.yield() }
                }
            }
            let consumer = Task {
                var last = -1
                var ordered = true
                for await value in buffered {
                    if value <= last { ordered = false }
                    last = value
                }
                return ordered
            }
            let canceller = Task {
                for _ in 0..<(round % 5) { await Task.yield() }
                consumer.cancel()
            }
            await canceller.value
            #expect(await consumer.value, "\(name) round \(round): out of order")
            producer.cancel()
            await producer.value
            #expect(await probe.settled(), "\(name) round \(round): \(probe.liveIterators) alive, \(probe.iteratingNow) in next()")
            continuation.finish()
        }
    }
}
