import Testing

@testable import ReactiveAsync

/// Concurrent producers and consumers on one channel while another task cancels some of them.
@Suite(.timeLimit(.minutes(1))) struct ChannelStressTests {
    @Test("4 producers, 5 consumers, 2 of each cancelled: nothing lost, nothing twice, everyone ends")
    func producersConsumersAndCancellation() async {
        for round in 0..<20 {
            let channel = AsyncThrowingChannel<Int, Error>()
            let perProducer = 300
            let producers = (0..<4).map { p in
                Task { for i in 0..<perProducer { await channel.send(p * 10_000 + i) } }
            }
            let victimProducers = (4..<6).map { p in
                Task { for i in 0..<perProducer { await channel.send(p * 10_000 + i) } }
            }
            let consumers = (0..<5).map { _ in
                Task {
                    var got: [Int] = []
                    var iterator = channel.makeAsyncIterator()
                    while let value = try? await iterator.next() { got.append(value) }
                    return got
                }
            }
            // Another task cancels two consumers and the victim producers while values flow.
            let canceller = Task {
                for _ in 0..<(round % 7) { await Task.yield() }
                consumers[3].cancel()
                victimProducers[0].cancel()
                await Task.yield()
                consumers[4].cancel()
                victimProducers[1].cancel()
            }
            for producer in producers { await producer.value }
            await canceller.value
            for producer in victimProducers { await producer.value }
            channel.finish()
            var received: [Int] = []
            for consumer in consumers { received += await consumer.value }
            #expect(Set(received).count == received.count, "round \(round): an element arrived twice")
            let needed = Set((0..<4).flatMap { p in (0..<perProducer).map { p * 10_000 + $0 } })
            #expect(needed.isSubset(of: Set(received)), "round \(round): an element of a live producer was lost")
        }
    }

    @Test("finish racing sends and nexts from many tasks: every suspended operation resumes")
    func finishRace() async {
        for _ in 0..<50 {
            let channel = AsyncChannel<Int>()
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<8 { group.addTask { await channel.send(i) } }
                for _ in 0..<4 {
                    group.addTask {
                        var iterator = channel.makeAsyncIterator()
                        while await iterator.next() != nil {}
                    }
                }
                group.addTask { channel.finish() }
            }
        }
    }
}
