import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: async()")
struct AsyncValueTests {
    @Test("C44 async() returns the first value and cancels the subscription")
    func firstValue() async throws {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        executor.drain()
        #expect(upstream.last?.requested == [.max(1)], "one value is asked for")
        upstream.send(5)
        executor.drain()
        #expect(try await task.value == 5)
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("async() takes the first of a synchronous sequence")
    func synchronous() async throws {
        #expect(try await [1, 2, 3].publisher.async() == 1)
        #expect(try await Just("todo").async() == "todo")
    }

    @Test("C44 a failure is rethrown")
    func failure() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, TestError>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        executor.drain()
        upstream.send(completion: .failure(TestError("no")))
        executor.drain()
        await #expect(throws: TestError("no")) { try await task.value }
    }

    @Test("C44 finishing without a value throws AsyncError.finishedWithoutValue, never hangs", .hangLimit)
    func finishedWithoutValue() async throws {
        // A watchdog on each await: a hang fails here, within seconds, instead of stalling the run.
        let empty = try #require(await withinTime { try await Empty<Int, Never>().async() }, "async() of Empty hung")
        #expect(throws: AsyncError.finishedWithoutValue) { try empty.get() }
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        executor.drain()
        upstream.send(completion: .finished)
        executor.drain()
        let finished = try #require(await withinTime { try await task.value }, "async() hung after .finished")
        #expect(throws: AsyncError.finishedWithoutValue) { try finished.get() }
    }

    @Test("C44 cancelling the calling task cancels the subscription and throws CancellationError")
    func cancellation() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        executor.drain()
        task.cancel()
        executor.drain()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(upstream.last?.isCancelled == true)
        upstream.send(1)  // a late value goes nowhere
    }

    @Test("a task cancelled before async() never subscribes")
    func cancelledBefore() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        task.cancel()
        executor.drain()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(upstream.subscriberCount == 0)
    }

    @Test("a value after the task was cancelled does not resume twice")
    func valueAfterCancel() async {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let task = Task(executorPreference: executor) { try await upstream.async() }
        executor.drain()
        task.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        executor.drain()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("async() on a CurrentValueSubject returns its current value")
    func currentValue() async throws {
        let subject = CurrentValueSubject<String, Never>("now")
        #expect(try await subject.async() == "now")
    }

    @Test("async() on a Future waits for the promise")
    func future() async throws {
        let executor = DrainExecutor()
        let future = Future<Int, Never>(executorPreference: executor) { 5 }
        executor.drain()
        #expect(try await future.async() == 5)
    }
}
