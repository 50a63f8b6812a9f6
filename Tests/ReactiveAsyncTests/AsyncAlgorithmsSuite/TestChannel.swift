import ReactiveAsync
import Testing

/// Returns once `task` has been cancelled and has ended, for the package's cancellation checks.
private func cancelAndWait<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) async -> Result<Success, Failure> {
    task.cancel()
    return await task.result
}

/// Starts a consumer task that asks `channel` for one element.
private func oneElement<Element: Sendable, Failure: Error>(of channel: AsyncThrowingChannel<Element, Failure>) -> Task<Element?, any Error> {
    Task {
        var iterator = channel.makeAsyncIterator()
        return try await iterator.next()
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestChannel.swift`, rewritten for
/// `ReactiveAsync`: two producers and two consumers, `finish` and `fail` ending every iterator and
/// letting later sends return at once, cancellation of a waiting `next()` and of a waiting `send`.
/// The package waits on XCTest expectations with timeouts; here the tasks are awaited (the suite's
/// time limit catches a send that never returns).
@Suite(.hangLimit) struct TestChannel {
    @Test func test_asyncChannel_delivers_values_when_two_producers_and_two_consumers() async {
        let channel = AsyncChannel<String>()
        Task { await channel.send("test1") }
        Task { await channel.send("test2") }
        let other = Task { () -> String? in
            var iterator = channel.makeAsyncIterator()
            return await iterator.next()
        }
        var iterator = channel.makeAsyncIterator()
        let mine = await iterator.next()
        #expect(Set([await other.value, mine]) == Set<String?>(["test1", "test2"]))
    }

    @Test func test_asyncThrowingChannel_delivers_values_when_two_producers_and_two_consumers() async throws {
        let channel = AsyncThrowingChannel<String, any Error>()
        Task { await channel.send("test1") }
        Task { await channel.send("test2") }
        let other = oneElement(of: channel)
        var iterator = channel.makeAsyncIterator()
        let mine = try await iterator.next()
        #expect(Set([try await other.value, mine]) == Set<String?>(["test1", "test2"]))
    }

    @Test func test_asyncThrowingChannel_throws_and_discards_additional_sent_values_when_fail_is_called() async {
        let channel = AsyncThrowingChannel<String, any Error>()
        channel.fail(PackageFailure())
        await expectDrained(channel, [], fails: true)
        // A send after the failure returns at once.
        await channel.send("send")
    }

    @Test func test_asyncChannel_ends_alls_iterators_and_discards_additional_sent_values_when_finish_is_called() async {
        let channel = AsyncChannel<String>()
        let consumers = (0..<2).map { _ in Task { await drain(channel) } }
        Task { channel.finish() }
        for consumer in consumers {
            let run = await consumer.value
            #expect(run.elements.isEmpty && run.pastEnd == nil)
        }
        await channel.send("test")
    }

    // The same with both consumers waiting before the finish (the package sleeps a second first).
    @Test func test_asyncChannel_ends_alls_iterators_and_discards_additional_sent_values_when_finish_is_called2() async {
        let channel = AsyncChannel<String>()
        let consumers = (0..<2).map { _ in Task { await drain(channel) } }
        await Task.yield()
        channel.finish()
        for consumer in consumers {
            let run = await consumer.value
            #expect(run.elements.isEmpty && run.pastEnd == nil)
        }
        await channel.send("test")
    }

    @Test func test_asyncThrowingChannel_ends_alls_iterators_and_discards_additional_sent_values_when_finish_is_called() async {
        let channel = AsyncThrowingChannel<String, any Error>()
        let consumers = (0..<2).map { _ in Task { await drain(channel) } }
        Task { channel.finish() }
        for consumer in consumers {
            let run = await consumer.value
            #expect(run.elements.isEmpty && run.error == nil && run.pastEnd == nil && run.pastEndError == nil)
        }
        await channel.send("test")
    }

    @Test func test_asyncChannel_ends_iterator_when_task_is_cancelled() async {
        let channel = AsyncChannel<String>()
        let consumer = Task { () -> String? in
            var iterator = channel.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await cancelAndWait(consumer).get() == nil)
    }

    @Test func test_asyncThrowingChannel_ends_iterator_when_task_is_cancelled() async throws {
        let channel = AsyncThrowingChannel<String, any Error>()
        #expect(try await cancelAndWait(oneElement(of: channel)).get() == nil)
    }

    @Test func test_asyncChannel_resumes_send_when_task_is_cancelled() async {
        let channel = AsyncChannel<Int>()
        _ = await cancelAndWait(Task { await channel.send(1) })
    }

    @Test func test_asyncThrowingChannel_resumes_send_when_task_is_cancelled() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        _ = await cancelAndWait(Task { await channel.send(1) })
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestThrowingChannel.swift`, rewritten for
/// `ReactiveAsync`: the package's given/when/then cases, in the same order.
@Suite(.hangLimit) struct TestThrowingChannel {
    @Test func test_asyncThrowingChannel_delivers_elements_when_several_producers_and_several_consumers() async throws {
        let channel = AsyncThrowingChannel<Int, any Error>()
        Task {
            await withTaskGroup(of: Void.self) { group in
                for sent in 1...10 { group.addTask { await channel.send(sent) } }
            }
        }
        let collected = try await withThrowingTaskGroup(of: Int.self, returning: Set<Int>.self) { group in
            for _ in 1...10 { group.addTask { try await oneElement(of: channel).value ?? -1 } }
            var collected = Set<Int>()
            for try await element in group { collected.insert(element) }
            return collected
        }
        #expect(collected == Set(1...10))
    }

    @Test func test_asyncThrowingChannel_resumes_producers_and_discards_additional_elements_when_finish_is_called() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let senders = [Task { await channel.send(1) }, Task { await channel.send(2) }]
        channel.finish()
        for sender in senders { await sender.value }
        await channel.send(3)
        await expectDrained(channel, [])
    }

    @Test func test_asyncThrowingChannel_resumes_producers_and_discards_additional_elements_when_fail_is_called() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let senders = [Task { await channel.send(1) }, Task { await channel.send(2) }]
        channel.fail(PackageFailure())
        for sender in senders { await sender.value }
        await channel.send(3)
        await expectDrained(channel, [], fails: true)
    }

    @Test func test_asyncThrowingChannel_resumes_consumers_when_finish_is_called() async throws {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let consumers = [oneElement(of: channel), oneElement(of: channel)]
        channel.finish()
        for consumer in consumers { #expect(try await consumer.value == nil) }
        await expectDrained(channel, [])
    }

    @Test func test_asyncThrowingChannel_resumes_consumer_when_fail_is_called() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let consumer = Task { await drain(channel) }
        channel.fail(PackageFailure())
        let run = await consumer.value
        #expect(run.error is PackageFailure)
        #expect(run.pastEnd == nil && run.pastEndError == nil)
    }

    @Test func test_asyncThrowingChannel_resumes_consumers_when_fail_is_called() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let consumers = [oneElement(of: channel), oneElement(of: channel)]
        channel.fail(PackageFailure())
        // The package checks the error of whichever consumer throws; the failure reaches at
        // least one, the other ends (with it or with nil).
        var failures = 0
        for consumer in consumers {
            if case .failure(let error) = await consumer.result {
                #expect(error is PackageFailure)
                failures += 1
            }
        }
        #expect(failures >= 1)
        await expectDrained(channel, [])
    }

    @Test func test_asyncThrowingChannel_resumes_consumer_with_error_when_already_failed() async {
        let channel = AsyncThrowingChannel<Int, any Error>()
        channel.fail(PackageFailure())
        await expectDrained(channel, [], fails: true)
    }

    @Test func test_asyncThrowingChannel_resumes_producer_when_task_is_cancelled() async throws {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let first = Task { await channel.send(1) }
        let second = Task { await channel.send(2) }
        _ = await cancelAndWait(first)
        var iterator = channel.makeAsyncIterator()
        let collected = try await iterator.next()
        await second.value
        #expect(collected == 2)
    }

    @Test func test_asyncThrowingChannel_resumes_consumer_when_task_is_cancelled() async throws {
        let channel = AsyncThrowingChannel<Int, any Error>()
        let first = oneElement(of: channel)
        let second = oneElement(of: channel)
        #expect(try await cancelAndWait(first).get() == nil)
        await channel.send(1)
        #expect(try await second.value == 1)
    }
}
