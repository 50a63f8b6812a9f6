import Synchronization
import Testing

@testable import ReactiveAsync

/// Concurrent producers into one ``MultiProducerSingleConsumerAsyncChannel`` while the consumer
/// and some producers are cancelled from other tasks.
@Suite(.timeLimit(.minutes(1))) struct MultiProducerSingleConsumerChannelStressTests {
    // The low watermark runs over 0…3: with 0, waiting producers resume only when the buffer
    // empties (the package's would wait for ever, see DifferencesBuffering.md).
    @Test("4 async producers and 2 callback producers into one consumer: everything once, in each producer's order")
    func producersIntoOneConsumer() async throws {
        for round in 0..<20 {
            var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
                of: Int.self, backpressureStrategy: .watermark(low: round % 4, high: 5 + round % 4))
            var channel = channelAndSource.takeChannel()
            var source = consume channelAndSource.source
            let perProducer = 200
            var producers: [Task<Void, any Error>] = []
            for p in 0..<4 {
                let owned = Owned(source.makeAdditionalSource())
                producers.append(
                    Task {
                        var producerSource = owned.take()
                        for i in 0..<perProducer { try await producerSource.send(p * 10_000 + i) }
                    })
            }
            for p in 4..<6 {
                let owned = Owned(source.makeAdditionalSource())
                producers.append(Task { try await Self.callbackProducer(owned.take(), base: p * 10_000, count: perProducer) })
            }
            _ = consume source  // the channel finishes once every producer's source is gone
            var received: [Int] = []
            while let value = await channel.next() { received.append(value) }
            for producer in producers { try await producer.value }
            #expect(received.count == 6 * perProducer, "round \(round)")
            for p in 0..<6 {
                let mine = received.filter { $0 / 10_000 == p }
                #expect(mine == (0..<perProducer).map { p * 10_000 + $0 }, "round \(round): producer \(p)'s order")
            }
        }
    }

    /// Sends with the synchronous API, waiting on the callback when the channel asks it to.
    private static func callbackProducer(
        _ source: consuming MultiProducerSingleConsumerAsyncChannel<Int, Never>.Source, base: Int, count: Int
    ) async throws {
        var source = source
        for i in 0..<count {
            switch try sendNow(&source, [base + i]) {
            case .produceMore:
                continue
            case .enqueueCallback(var handle):
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    handle.enqueueCallback { continuation.resume(with: $0) }
                }
            }
        }
    }

    @Test("the consumer cancelled from another task while 4 producers send: every producer ends, callbacks once")
    func consumerCancelledWhileProducing() async throws {
        for round in 0..<10 {
            var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(of: Int.self, backpressureStrategy: .watermark(low: 1, high: 3))
            let channel = channelAndSource.takeChannel()
            var source = consume channelAndSource.source
            let terminations = Atomic(0)
            var producers: [Task<Void, Never>] = []
            for p in 0..<4 {
                let producerSource = source.makeAdditionalSource()
                producerSource.setOnTerminationCallback { terminations.add(1, ordering: .relaxed) }
                let owned = Owned(producerSource)
                producers.append(
                    Task {
                        var producerSource = owned.take()
                        for i in 0..<500 {
                            do { try await producerSource.send(p * 100_000 + i) } catch { return }
                        }
                    })
            }
            _ = consume source
            let received = Atomic(0)
            let ownedChannel = Owned(channel)
            let consumer = Task {
                var channel = ownedChannel.take()
                while await channel.next() != nil { received.add(1, ordering: .relaxed) }
            }
            let canceller = Task {
                for _ in 0..<(round % 9) { await Task.yield() }
                consumer.cancel()
            }
            await canceller.value
            await consumer.value
            for producer in producers { await producer.value }
            #expect(terminations.load(ordering: .relaxed) == 4, "round \(round): each source's callback once")
        }
    }

    @Test("producers cancelled from another task while they wait: each ends, the rest still arrive")
    func producersCancelled() async throws {
        for round in 0..<20 {
            var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(of: Int.self, backpressureStrategy: .watermark(low: 1, high: 2))
            var channel = channelAndSource.takeChannel()
            var source = consume channelAndSource.source
            var survivors: [Task<Void, any Error>] = []
            var victims: [Task<Void, any Error>] = []
            for p in 0..<6 {
                let owned = Owned(source.makeAdditionalSource())
                let task = Task {
                    var producerSource = owned.take()
                    for i in 0..<300 { try await producerSource.send(p * 10_000 + i) }
                }
                if p < 3 { survivors.append(task) } else { victims.append(task) }
            }
            _ = consume source
            let toCancel = victims
            let canceller = Task {
                for _ in 0..<(round % 5) { await Task.yield() }
                for victim in toCancel { victim.cancel() }
            }
            var received: [Int] = []
            while let value = await channel.next() { received.append(value) }
            await canceller.value
            for survivor in survivors { try await survivor.value }
            for victim in victims { _ = await victim.result }
            #expect(Set(received).count == received.count, "round \(round): nothing twice")
            let needed = Set((0..<3).flatMap { p in (0..<300).map { p * 10_000 + $0 } })
            #expect(needed.isSubset(of: Set(received)), "round \(round): a survivor's element was lost")
        }
    }
}
