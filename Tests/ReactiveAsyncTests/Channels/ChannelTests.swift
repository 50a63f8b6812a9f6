import Synchronization
import Testing

@testable import ReactiveAsync

/// Spins (yielding) until `condition` holds or about two seconds passed; a watchdog, not a timer.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

@Suite(.hangLimit) struct ChannelTests {
    @Test("the guide's example: a task sends results, the loop receives them in order, then ends")
    func guideExample() async {
        // The package's Channel guide, "Detailed Design".
        let channel = AsyncChannel<String>()
        let producer = Task {
            for result in ["a", "b", "c"] { await channel.send(result) }
            channel.finish()
        }
        var received: [String] = []
        for await result in channel { received.append(result) }
        await producer.value
        #expect(received == ["a", "b", "c"])
    }

    @Test("send does not return until a consumer has taken the element")
    func sendSuspendsUntilConsumed() async {
        // The package's Channel guide: "That call to send(_:) returns when the next iteration of the channel is invoked."
        let channel = AsyncChannel<Int>()
        let returned = Atomic(false)
        let producer = Task {
            await channel.send(1)
            returned.store(true, ordering: .sequentiallyConsistent)
        }
        for _ in 0..<20 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
        let returnedEarly = returned.load(ordering: .sequentiallyConsistent)
        #expect(!returnedEarly)
        var iterator = channel.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        await producer.value
        let returnedAfter = returned.load(ordering: .sequentiallyConsistent)
        #expect(returnedAfter)
    }

    @Test("finish resumes suspended senders and consumers; later sends return and iteration ends")
    func finishResumesEveryone() async {
        // The package's Channel guide: "finish() … immediately resumes all the pending operations".
        let channel = AsyncChannel<Int>()
        let senders = (0..<2).map { value in Task { await channel.send(value) } }
        let consumer = Task {
            var iterator = channel.makeAsyncIterator()
            return await iterator.next()
        }
        let taken = await consumer.value
        #expect(taken == 0 || taken == 1)
        let waiting = Task {
            var iterator = channel.makeAsyncIterator()
            return await iterator.next()
        }
        channel.finish()
        for sender in senders { await sender.value }
        // The other sender's element was dropped at finish, or taken by `waiting` before it.
        let late = await waiting.value
        #expect(late == nil || late == 1 - (taken ?? 0))
        await channel.send(2)
        var iterator = channel.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test("finish with two consumers waiting resumes both with nil")
    func finishWithWaitingConsumers() async {
        let channel = AsyncChannel<Int>()
        let a = Task {
            var it = channel.makeAsyncIterator(); return await it.next()
        }
        let b = Task {
            var it = channel.makeAsyncIterator(); return await it.next()
        }
        try? await Task.sleep(for: .milliseconds(10))
        channel.finish()
        #expect(await a.value == nil)
        #expect(await b.value == nil)
    }

    @Test("a finished channel yields nothing: empty input")
    func empty() async {
        let channel = AsyncChannel<Int>()
        channel.finish()
        let (elements, failure) = await collect(channel)
        #expect(elements.isEmpty)
        #expect(failure == nil)
    }

    @Test("fail: a waiting consumer throws the error; after it iteration returns nil")
    func failWithWaitingConsumer() async throws {
        let channel = AsyncThrowingChannel<Int, Error>()
        let consumer = Task { await collect(channel) }
        try? await Task.sleep(for: .milliseconds(10))
        await channel.send(1)
        channel.fail(TestError(tag: 1))
        let (elements, failure) = await consumer.value
        #expect(elements == [1])
        #expect(failure as? TestError == TestError(tag: 1))
        var iterator = channel.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test("fail with nobody waiting: the next call throws once, then nil")
    func failWithoutConsumer() async throws {
        // The package's ChannelStateMachine (as read): the failure is kept for the next consumer, once.
        let channel = AsyncThrowingChannel<Int, Error>()
        channel.fail(TestError(tag: 2))
        var iterator = channel.makeAsyncIterator()
        await #expect(throws: TestError(tag: 2)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test("fail resumes a suspended sender; its element is dropped")
    func failResumesSender() async {
        let channel = AsyncThrowingChannel<Int, Error>()
        let sender = Task { await channel.send(1) }
        try? await Task.sleep(for: .milliseconds(10))
        channel.fail(TestError())
        await sender.value
        var iterator = channel.makeAsyncIterator()
        await #expect(throws: TestError()) { try await iterator.next() }
    }

    @Test("cancelling a suspended send resumes it and its element is never delivered")
    func cancelSuspendedSend() async {
        // The package's Channel guide: "The calls to send(:) and next() will immediately resume when their supporting task is cancelled, other operations from other tasks will remain active."
        let channel = AsyncChannel<Int>()
        let cancelled = Task { await channel.send(1) }
        try? await Task.sleep(for: .milliseconds(10))
        cancelled.cancel()
        await cancelled.value
        let other = Task { await channel.send(2) }
        var iterator = channel.makeAsyncIterator()
        #expect(await iterator.next() == 2)
        await other.value
    }

    @Test("cancelling a suspended next returns nil; other consumers stay active")
    func cancelSuspendedNext() async throws {
        let channel = AsyncThrowingChannel<Int, Error>()
        let cancelled = Task {
            var it = channel.makeAsyncIterator(); return try await it.next()
        }
        let other = Task {
            var it = channel.makeAsyncIterator(); return try await it.next()
        }
        try? await Task.sleep(for: .milliseconds(10))
        cancelled.cancel()
        #expect(try await cancelled.value == nil)
        await channel.send(5)
        #expect(try await other.value == 5)
    }

    @Test("a send from an already cancelled task returns without delivering")
    func sendFromCancelledTask() async {
        let channel = AsyncChannel<Int>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await channel.send(1)
        }
        await task.value
        channel.finish()
        let (elements, _) = await collect(channel)
        #expect(elements.isEmpty)
    }

    @Test("cancelling the consuming task ends the loop and leaves no producer suspended")
    func cancelConsumingTask() async {
        let channel = AsyncChannel<Int>()
        let received = StateLock<[Int]>([])
        let consumer = Task {
            for await value in channel { received.withLock { $0.append(value) } }
        }
        await channel.send(1)
        consumer.cancel()
        await consumer.value
        let late = Task { await channel.send(2) }
        try? await Task.sleep(for: .milliseconds(10))
        late.cancel()
        await late.value
        #expect(received.withLock { $0 } == [1])
    }

    @Test("several producers, several consumers: every element arrives exactly once")
    func manyToMany() async {
        let channel = AsyncChannel<Int>()
        let all = await withTaskGroup(of: [Int].self) { group in
            for p in 0..<4 {
                group.addTask {
                    for i in 0..<100 { await channel.send(p * 1000 + i) }
                    return []
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    var got: [Int] = []
                    for await value in channel { got.append(value) }
                    return got
                }
            }
            var producersDone = 0
            var received: [Int] = []
            for await part in group {
                if part.isEmpty {
                    producersDone += 1
                    if producersDone == 4 { channel.finish() }
                } else {
                    received += part
                }
            }
            return received
        }
        let expected: [Int] = (0..<4).flatMap { (p: Int) -> [Int] in (0..<100).map { p * 1000 + $0 } }
        #expect(all.sorted() == expected)
    }

    @Test("property: any elements from up to three producers arrive once each, each producer's in order", arguments: 0..<20)
    func propertyAgainstModel(seed: Int) async {
        var random = SplitMix(seed: UInt64(seed))
        let producerCount = Int(random.next() % 3) + 1
        let inputs: [[Int]] = (0..<producerCount).map { p in
            (0..<Int(random.next() % 20)).map { p * 100 + $0 }
        }
        let channel = AsyncChannel<Int>()
        let consumer = Task { await collect(channel).elements }
        await withTaskGroup(of: Void.self) { group in
            for input in inputs {
                group.addTask { for value in input { await channel.send(value) } }
            }
        }
        channel.finish()
        let received = await consumer.value
        // The synchronous model: the multiset of all inputs, and each producer's subsequence in order.
        #expect(received.sorted() == inputs.flatMap { $0 }.sorted())
        for (p, input) in inputs.enumerated() {
            #expect(received.filter { $0 / 100 == p } == input)
        }
    }
}

/// A small seeded generator, so a failing property case reproduces.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
