import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: values")
struct AsyncPublisherTests {
    @Test("for await over values yields every value, then ends")
    func allValues() async {
        var seen: [Int] = []
        for await value in (1...5).publisher.values { seen.append(value) }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test("values of a publisher that cannot fail is an AsyncPublisher; otherwise AsyncThrowingPublisher")
    func types() {
        let plain = Just(1).values
        let _: AsyncPublisher<Just<Int>> = plain
        let throwing = ManualPublisher<Int, TestError>().values
        let _: AsyncThrowingPublisher<ManualPublisher<Int, TestError>> = throwing
    }

    @Test("C43 one value is requested per next()")
    func oneAtATime() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { () -> [Int] in
            var seen: [Int] = []
            for await value in upstream.values { seen.append(value) }
            return seen
        }
        executor.drain()
        #expect(upstream.last?.requested == [.max(1)])
        upstream.send(1)
        #expect(upstream.last?.requested == [.max(1)], "nothing more until the consumer asks")
        executor.drain()
        #expect(upstream.last?.requested == [.max(1), .max(1)])
        upstream.send(2)
        executor.drain()
        upstream.send(completion: .finished)
        executor.drain()
        #expect(await task.value == [1, 2])
    }

    @Test("C44 two concurrent next() calls on one iterator are both served, each with its own request (Combine)")
    func concurrentNext() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let log = BridgeLog()
        for _ in 0..<2 {
            Task(executorPreference: executor) {
                var iterator = shared.iterator
                log.append(await iterator.next().map { "\($0)" } ?? "nil")
            }
        }
        executor.drain()
        #expect(upstream.last?.requested == [.max(1), .max(1)])
        upstream.send(1)
        upstream.send(2)
        executor.drain()
        // Not awaited: before the fix one of them waited forever.
        #expect(log.all.sorted() == ["1", "2"])
    }

    @Test("C44 every next() still waiting when the publisher finishes returns nil")
    func concurrentNextFinish() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let log = BridgeLog()
        for _ in 0..<3 {
            Task(executorPreference: executor) {
                var iterator = shared.iterator
                log.append(await iterator.next().map { "\($0)" } ?? "nil")
            }
        }
        executor.drain()
        upstream.send(7)
        upstream.send(completion: .finished)
        executor.drain()
        #expect(log.all.sorted() == ["7", "nil", "nil"])
    }

    @Test("C43 after finish next() returns nil forever")
    func nilForever() async {
        var iterator = Just(1).values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test("C43 after a failure next() throws once, then returns nil")
    func throwsOnce() async throws {
        let upstream = ManualPublisher<Int, TestError>()
        var iterator = upstream.values.makeAsyncIterator()
        upstream.send(completion: .failure(TestError("x")))
        await #expect(throws: TestError("x")) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test("a value received before a failure is returned first")
    func valueThenFailure() async throws {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, TestError>()
        let task = Task(executorPreference: executor) { () -> [String] in
            var log: [String] = []
            var iterator = upstream.values.makeAsyncIterator()
            do {
                while let value = try await iterator.next() { log.append("\(value)") }
                log.append("end")
            } catch {
                log.append("threw \(error)")
            }
            return log
        }
        executor.drain()
        upstream.send(1)
        upstream.send(completion: .failure(TestError("late")))
        executor.drain()
        #expect(await task.value == ["1", "threw late"])
    }

    @Test("C43 leaving the loop cancels upstream")
    func breakCancels() async {
        let upstream = ManualPublisher<Int, Never>()
        let executor = DrainExecutor()
        let task = Task(executorPreference: executor) { () -> Int? in
            for await value in upstream.values { return value }
            return nil
        }
        executor.drain()
        upstream.send(9)
        executor.drain()
        #expect(await task.value == 9)
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("C43 cancelling the consuming task cancels upstream and ends the loop")
    func taskCancelCancels() async {
        let upstream = ManualPublisher<Int, Never>()
        let executor = DrainExecutor()
        let task = Task(executorPreference: executor) { () -> Int in
            var count = 0
            for await _ in upstream.values { count += 1 }
            return count
        }
        executor.drain()
        upstream.send(1)
        executor.drain()
        task.cancel()
        executor.drain()
        #expect(await task.value == 1)
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("an endless synchronous publisher stops when the task is cancelled")
    func endlessStops() async {
        let task = Task { () -> Int in
            var count = 0
            for await _ in (0...).publisher.values {
                count += 1
                if count == 1000 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        #expect(await task.value == 1000)
    }

    @Test("C16 leaving the loop releases the subscription's resources")
    func releases() async {
        weak var weakUpstream: ManualPublisher<Int, Never>.ManualSubscription?
        do {
            let upstream = ManualPublisher<Int, Never>()
            var iterator = upstream.values.makeAsyncIterator()
            weakUpstream = upstream.last
            upstream.send(completion: .finished)
            #expect(await iterator.next() == nil)
        }
        #expect(weakUpstream == nil)
    }

    @Test("C11 over a PassthroughSubject, a value sent while the consumer is not asking is dropped (no buffer)")
    func subjectWithoutDemand() async {
        let executor = DrainExecutor()
        let subject = PassthroughSubject<Int, Never>()
        let task = Task(executorPreference: executor) { () -> [Int] in
            var seen: [Int] = []
            for await value in subject.values {
                seen.append(value)
                if seen.count == 2 { break }
            }
            return seen
        }
        executor.drain()
        subject.send(1)
        subject.send(2)  // the consumer has not asked again yet: the subject drops it
        executor.drain()
        subject.send(3)
        executor.drain()
        #expect(await task.value == [1, 3])
    }
}

/// One `values` iterator shared by several tasks (its copies share one subscription).
private final class SharedIterator<P: Publisher>: @unchecked Sendable where P.Failure == Never, P.Output: Sendable {
    // @unchecked: `iterator` is a `let`; each task calls `next()` on its own copy of it.
    let iterator: AsyncPublisher<P>.Iterator
    init(_ iterator: AsyncPublisher<P>.Iterator) { self.iterator = iterator }
}
