import Synchronization
import Testing

@testable import ReactiveAsync

/// ``MultiProducerSingleConsumerAsyncChannel``'s behaviour. Facts come from the package's proposal
/// SAA-0016 ("proposal") and its `MultiProducerSingleConsumerAsyncChannelTests.swift` ("package
/// tests"), as read; each test names its source.
@Suite(.hangLimit) struct MultiProducerSingleConsumerChannelTests {
    struct Boom: Error, Equatable {}

    @Test("the proposal's example: send 1, finish, then the consumer gets 1 and nil")
    func sendFinishNext() async throws {
        try await withChannel { channel, source in
            var source = source
            try await source.send(1)
            source.finish()
            #expect(await channel.next() == 1)
            #expect(await channel.next() == nil)
        }
    }

    @Test("finish(throwing:): buffered elements first, then the error (proposal)")
    func finishThrowing() async throws {
        var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
            of: Int.self, throwing: Boom.self, backpressureStrategy: .watermark(low: 2, high: 4))
        var channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        try await source.send(1)
        source.finish(throwing: Boom())
        #expect(try await channel.next() == 1)
        await #expect(throws: Boom.self) { try await channel.next() }
        #expect(try await channel.next() == nil)
    }

    @Test("dropping the source finishes the channel (proposal: 'deiniting the source … same effect as finish()')")
    func droppingSourceFinishes() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        var channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        try await source.send(1)
        _ = consume source
        #expect(await channel.next() == 1)
        #expect(await channel.next() == nil)
    }

    @Test("with two sources, the channel ends only when both are gone (proposal, 'Multi producer')")
    func twoSources() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        var channel = channelAndSource.takeChannel()
        var source1 = consume channelAndSource.source
        var source2 = source1.makeAdditionalSource()
        let terminated = Atomic(0)
        source1.setOnTerminationCallback { terminated.add(1, ordering: .relaxed) }
        try await source1.send(1)
        _ = consume source1
        try await source2.send(2)
        #expect(await channel.next() == 1)
        #expect(await channel.next() == 2)
        #expect(terminated.load(ordering: .relaxed) == 0)
        _ = consume source2
        #expect(await channel.next() == nil)
        #expect(terminated.load(ordering: .relaxed) == 1, "proposal: 'Termination through deiniting the last source and consuming the last element'")
    }

    @Test("sync send: produceMore below the high watermark, then a callback handle that fires below the low one")
    func syncSendAndCallback() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        var channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        for value in 1...3 {
            guard case .produceMore = try sendNow(&source, [value]) else {
                Issue.record("level \(value) < 4: produce more")
                return
            }
        }
        let called = Mutex<[Bool]>([])
        switch try sendNow(&source, [4, 5]) {
        case .produceMore:
            Issue.record("level 5 ≥ 4: the producer must wait")
        case .enqueueCallback(var handle):
            handle.enqueueCallback { result in
                let succeeded = (try? result.get()) != nil
                called.withLock { $0.append(succeeded) }
            }
        }
        // Level 5 → 4 → 3 → 2: still not below 2.
        for expected in 1...3 { #expect(await channel.next() == expected) }
        #expect(called.withLock { $0 }.isEmpty)
        #expect(await channel.next() == 4)  // level 1 < 2
        #expect(called.withLock { $0 } == [true])
        source.finish()
        #expect(await channel.next() == 5)
        #expect(await channel.next() == nil)
    }

    @Test("send(_:onProduceMore:) calls back at once when below the high watermark, and with the error after finish")
    func callbackSend() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        let channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        let results = Mutex<[String]>([])
        source.send(1) { result in results.withLock { $0.append((try? result.get()) != nil ? "more" : "error") } }
        var other = source.makeAdditionalSource()
        source.finish()
        other.send(2) { result in
            let isFinished = { if case .failure(let error) = result { error is MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError } else { false } }()
            results.withLock { $0.append(isFinished ? "finished" : "?") }
        }
        #expect(results.withLock { $0 } == ["more", "finished"])
        _ = consume channel
    }

    @Test("async send suspends at the high watermark and resumes once the consumer goes below the low one")
    func asyncBackpressure() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        var channel = channelAndSource.takeChannel()
        let owned = Owned(channelAndSource.source)
        let sent = Atomic(0)
        let producer = Task {
            var source = owned.take()
            for value in 1...10 {
                try await source.send(value)
                sent.store(value, ordering: .sequentiallyConsistent)
            }
            source.finish()
        }
        #expect(await eventually { sent.load(ordering: .sequentiallyConsistent) == 3 })
        try await Task.sleep(for: .milliseconds(20))
        #expect(sent.load(ordering: .sequentiallyConsistent) == 3, "the 4th send reached the high watermark and waits")
        var received: [Int] = []
        while let value = await channel.next() { received.append(value) }
        #expect(received == Array(1...10))
        try await producer.value
    }

    @Test("weighted watermark: each element counts for its weight")
    func weighted() async throws {
        var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
            of: String.self, backpressureStrategy: .watermark(low: 2, high: 10, waterLevelForElement: { $0.count }))
        let channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        guard case .produceMore = try sendNow(&source, ["abc"]) else {
            Issue.record("3 < 10")
            return
        }
        guard case .enqueueCallback = try sendNow(&source, ["abcdefg"]) else {
            Issue.record("10 ≥ 10")
            return
        }
        _ = consume channel
    }

    @Test("cancelling the waiting consumer ends the channel: sends throw, termination callback called (proposal)")
    func consumerCancelled() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        let channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        let terminated = Atomic(0)
        source.setOnTerminationCallback { terminated.add(1, ordering: .relaxed) }
        let ownedChannel = Owned(channel)
        let consumer = Task {
            var channel = ownedChannel.take()
            return await channel.next()
        }
        try await Task.sleep(for: .milliseconds(10))
        consumer.cancel()
        #expect(await consumer.value == nil)
        #expect(terminated.load(ordering: .relaxed) == 1)
        #expect(throws: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError.self) { _ = try sendNow(&source, [1]) }
    }

    @Test("a producer waiting when the consumer ends fails with the already-finished error (package tests)")
    func waitingProducerFailsOnConsumerEnd() async throws {
        var channelAndSource = ints(low: 1, high: 1)
        let channel = channelAndSource.takeChannel()
        let owned = Owned(channelAndSource.source)
        let producer = Task {
            var source = owned.take()
            try await source.send(1)  // level 1 = high: waits
        }
        try await Task.sleep(for: .milliseconds(10))
        _ = consume channel  // dropping the channel ends the consumer
        await #expect(throws: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError.self) { try await producer.value }
    }

    @Test("a producer cancelled while waiting throws CancellationError; its element stays sent")
    func producerCancelled() async throws {
        var channelAndSource = ints(low: 1, high: 1)
        var channel = channelAndSource.takeChannel()
        let owned = Owned(channelAndSource.source)
        let producer = Task {
            var source = owned.take()
            try await source.send(1)
        }
        try await Task.sleep(for: .milliseconds(10))
        producer.cancel()
        await #expect(throws: CancellationError.self) { try await producer.value }
        // The source went with the task, so the channel finished after its buffer.
        #expect(await channel.next() == 1)
        #expect(await channel.next() == nil)
    }

    @Test("elements(): for await over the channel; dropping the iterator ends it for producers")
    func elementsSequence() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        let channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        let terminated = Atomic(0)
        source.setOnTerminationCallback { terminated.add(1, ordering: .relaxed) }
        let elements = channel.elements()
        _ = try sendNow(&source, [1, 2, 3])
        var received: [Int] = []
        for await value in elements {
            received.append(value)
            if value == 2 { break }
        }
        #expect(received == [1, 2])
        #expect(terminated.load(ordering: .relaxed) == 1, "the iterator went with the loop")
        #expect(throws: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError.self) { _ = try sendNow(&source, [4]) }
    }

    @Test("a second iterator of elements() ends at once (difference: the package stops the process)")
    func secondIterator() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        let channel = channelAndSource.takeChannel()
        var source = consume channelAndSource.source
        let elements = channel.elements()
        _ = try sendNow(&source, [1])
        var first = elements.makeAsyncIterator()
        var second = elements.makeAsyncIterator()
        #expect(try await second.next() == nil)
        #expect(try await first.next() == 1)
        _ = try sendNow(&source, [2])
        #expect(try await first.next() == 2, "the second iterator did not end the channel")
    }

    @Test("a termination callback set after the end is called at once (package source: setOnTerminationCallback)")
    func lateTerminationCallback() async throws {
        var channelAndSource = ints(low: 2, high: 4)
        let channel = channelAndSource.takeChannel()
        let source = consume channelAndSource.source
        _ = consume channel
        let called = Atomic(false)
        source.setOnTerminationCallback { called.store(true, ordering: .relaxed) }
        let wasCalled = called.load(ordering: .relaxed)
        #expect(wasCalled)
    }

    @Test("send(contentsOf:) an async sequence sends each element and does not finish")
    func sendAsyncSequence() async throws {
        try await withChannel { channel, source in
            var source = source
            try await source.send(contentsOf: [1, 2, 3].async)
            _ = try sendNow(&source, [4])
            source.finish()
            var received: [Int] = []
            while let value = await channel.next() { received.append(value) }
            #expect(received == [1, 2, 3, 4])
        }
    }

    @Test("watermark low: 0: a producer waiting at the high watermark resumes once the consumer empties the buffer (difference: the package's never resumes)")
    func lowZeroWatermark() async throws {
        // Package source, `_Watermark.didConsume`: demand only when the level is below `low`,
        // which with `low: 0` never happens; the send of 1 would wait for ever.
        var channelAndSource = ints(low: 0, high: 1)
        var channel = channelAndSource.takeChannel()
        let owned = Owned(channelAndSource.source)
        let producer = Task {
            var source = owned.take()
            for value in 1...3 { try await source.send(value) }
            source.finish()
        }
        var received: [Int] = []
        while let value = await channel.next() { received.append(value) }
        #expect(received == [1, 2, 3])
        try await producer.value
    }

    @Test("a callback handle cancelled after its callback ran changes nothing: later sends still wait and resume")
    func lateCallbackCancel() async throws {
        try await withChannel(low: 1, high: 1) { channel, source in
            var source = source
            for value in 1...50 {
                guard case .enqueueCallback(var handle) = try sendNow(&source, [value]) else {
                    Issue.record("level 1 = high: the producer waits")
                    return
                }
                let resumed = Atomic(false)
                handle.enqueueCallback { result in resumed.store((try? result.get()) != nil, ordering: .relaxed) }
                #expect(await channel.next() == value)
                let wasResumed = resumed.load(ordering: .relaxed)
                #expect(wasResumed)
                handle.cancelCallback()  // too late: nothing to cancel, nothing kept
            }
        }
    }
}

/// The synchronous `send(contentsOf:)`: in an async function the async overload wins, as with the
/// package.
func sendNow<Element>(
    _ source: inout MultiProducerSingleConsumerAsyncChannel<Element, Never>.Source, _ elements: sending [Element]
) throws -> MultiProducerSingleConsumerAsyncChannel<Element, Never>.Source.SendResult {
    try source.send(contentsOf: elements)
}

/// The suite's usual channel: `Int` elements, never failing, at these watermarks.
private func ints(low: Int, high: Int) -> MultiProducerSingleConsumerAsyncChannel<Int, Never>.ChannelAndStream {
    MultiProducerSingleConsumerAsyncChannel.makeChannel(of: Int.self, backpressureStrategy: .watermark(low: low, high: high))
}

/// Runs `body` with the channel and the source of ``ints(low:high:)``, for tests that keep the
/// channel and may finish the source.
private func withChannel(
    low: Int = 2, high: Int = 4,
    _ body: (inout MultiProducerSingleConsumerAsyncChannel<Int, Never>, consuming MultiProducerSingleConsumerAsyncChannel<Int, Never>.Source) async throws ->
        Void
) async rethrows {
    var channelAndSource = ints(low: low, high: high)
    var channel = channelAndSource.takeChannel()
    try await body(&channel, channelAndSource.source)
}
