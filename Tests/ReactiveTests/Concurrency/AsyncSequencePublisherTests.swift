import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: AsyncSequence as a publisher")
struct AsyncSequencePublisherTests {
    @Test("an AsyncStream's elements follow demand, then finish")
    func followsDemand() {
        let executor = DrainExecutor()
        let stream = AsyncStream<Int> { continuation in
            for i in 1...5 { continuation.yield(i) }
            continuation.finish()
        }
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        Publishers.AsyncSequence(stream, executorPreference: executor).subscribe(sub)
        executor.drain()
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
        sub.request(.max(3))
        executor.drain()
        #expect(sub.values == [1, 2, 3, 4, 5])
        sub.request(.max(1))
        executor.drain()
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("nothing is iterated before demand")
    func noDemandNoTask() {
        let executor = DrainExecutor()
        let stream = AsyncStream<Int> { $0.yield(1) }
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.AsyncSequence(stream, executorPreference: executor).subscribe(sub)
        #expect(executor.drain() == 0)
        #expect(sub.values == [])
    }

    @Test("a throwing sequence's error becomes the failure")
    func failure() {
        let executor = DrainExecutor()
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError("s"))
        }
        let sub = TestSubscriber<Int, any Error>()
        Publishers.AsyncSequence(stream, executorPreference: executor).subscribe(sub)
        executor.drain()
        #expect(sub.values == [1])
        #expect((sub.completion.flatMap { if case .failure(let e) = $0 { e as? TestError } else { nil } }) == TestError("s"))
    }

    @Test("C05 cancel stops the iteration and sends nothing more")
    func cancel() {
        let executor = DrainExecutor()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let sub = TestSubscriber<Int, Never>()
        Publishers.AsyncSequence(stream, executorPreference: executor).subscribe(sub)
        executor.drain()
        continuation.yield(1)
        executor.drain()
        #expect(sub.values == [1])
        sub.cancel()
        executor.drain()
        continuation.yield(2)
        continuation.finish()
        executor.drain()
        #expect(sub.values == [1])
        #expect(sub.completion == nil)
        #expect(executor.pending == 0)
    }

    @Test(".publisher on an AsyncSequence works with sink on the global executor")
    func publisherProperty() async {
        let stream = AsyncStream<Int> { continuation in
            for i in 1...3 { continuation.yield(i) }
            continuation.finish()
        }
        let sub = TestSubscriber<Int, Never>()
        stream.publisher.subscribe(sub)
        #expect(await eventually { sub.completion != nil })
        #expect(sub.values == [1, 2, 3])
    }
}
