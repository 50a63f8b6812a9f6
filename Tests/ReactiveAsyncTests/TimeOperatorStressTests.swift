import Foundation
import ReactiveAsync
import Testing

/// Real threads and the real clock: producers on four threads released together, the consumer
/// cancelled from another task. Checked: no crash or hang (the time limit is the watchdog), nothing
/// after the end, and every task the operators started ends.
@Suite(.timeLimit(.minutes(1))) struct TimeOperatorStressTests {
    /// Four threads yield `perThread` elements each into a stream, released together; returns when
    /// all four are done.
    private static func producers(_ continuation: AsyncStream<Int>.Continuation, perThread: Int) async {
        let gate = DispatchGroup(), done = DispatchGroup()
        gate.enter()
        for thread in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                gate.wait()
                for index in 0..<perThread { continuation.yield(thread * perThread + index) }
                done.leave()
            }
        }
        gate.leave()
        await withCheckedContinuation { finished in done.notify(queue: .global()) { finished.resume() } }
    }

    /// Waits (no assertion on time) until the operators' tasks under `tracker` have all returned.
    private static func settle(_ tracker: TaskTracker) async throws {
        while tracker.running > 0 { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test("debounce and chunks with concurrent producers, cancelled from another task", arguments: 0..<20)
    func concurrentProducersAndCancel(round: Int) async throws {
        let tracker = TaskTracker()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let (chunkStream, chunkContinuation) = AsyncStream<Int>.makeStream()
        let consumers = TaskSpawning.$tracker.withValue(tracker) {
            (
                Task {
                    for await _ in stream.debounce(for: .microseconds(50), clock: ContinuousClock()) {}
                },
                Task {
                    for await _ in chunkStream.chunks(ofCount: 7, or: .repeating(every: .microseconds(100), clock: ContinuousClock())) {}
                }
            )
        }
        let canceller = Task {
            await Task.yield()
            consumers.0.cancel()
            consumers.1.cancel()
        }
        async let first: Void = Self.producers(continuation, perThread: 500)
        async let second: Void = Self.producers(chunkContinuation, perThread: 500)
        _ = await (first, second)
        await canceller.value
        await consumers.0.value
        await consumers.1.value
        continuation.finish()
        chunkContinuation.finish()
        try await Self.settle(tracker)
        #expect(tracker.running == 0)
        #expect(tracker.started <= 2)
    }

    @Test("debounce over a finishing stream with concurrent producers delivers its last element", arguments: 0..<10)
    func finishDeliversLast(round: Int) async throws {
        let tracker = TaskTracker()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = TaskSpawning.$tracker.withValue(tracker) {
            Task { () -> Int? in
                var last: Int?
                for await value in stream.debounce(for: .seconds(60), clock: ContinuousClock()) { last = value }
                return last
            }
        }
        await Self.producers(continuation, perThread: 200)
        // The debounce interval is long: only the finish lets the pending element out.
        continuation.finish()
        let last = await consumer.value
        #expect(last != nil)
        try await Self.settle(tracker)
        #expect(tracker.running == 0)
    }
}
