import Foundation
import Testing
import ReactiveTestSupport

/// The watchdog the async tests put on each await (`withinTime`) must measure the awaited work,
/// not the wait for a thread. CI failed `AsyncValueTests.finishedWithoutValue` ("async() hung
/// after .finished") in the parallel run: 1,676 tests queued on the two cooperative threads of a
/// two-core machine, and the watched task waited its turn for more than the 10 s deadline.
@Suite("withinTime: a watchdog that does not count the wait for a thread", .timeLimit(.minutes(1)))
struct WatchdogTests {
    @Test("an operation that returns at once is seen in time while every cooperative thread is held")
    func poolHeld() async throws {
        // More holders than the pool has threads: every thread is taken, and the rest wait in
        // the queue ahead of anything started after them.
        let holders = ProcessInfo.processInfo.activeProcessorCount + 2
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<holders {
            Task.detached { _ = release.wait(timeout: .now() + 3) }
        }
        let result = await withinTime(1.5) { 42 }
        for _ in 0..<holders { release.signal() }
        #expect(try result?.get() == 42, "the deadline passed while the operation waited for a thread")
    }

    @Test("an operation that never returns is reported as hung after the deadline")
    func hung() async {
        let never = AsyncStream<Int> { _ in }
        let result = await withinTime(0.2) { () async -> Int? in
            for await value in never { return value }
            return nil
        }
        #expect(result == nil)
    }
}
