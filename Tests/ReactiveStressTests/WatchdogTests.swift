import Foundation
import Synchronization
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

    @Test("waitUntil's looks are spent only while the pool moves: work that needs many turns is seen while every thread was held")
    func looksWhilePoolHeld() async {
        // The work needs 20 turns on the pool after the holders started, so it cannot end before
        // they let go (3 s). The wait allows 1,500 looks a millisecond apart (at least 1.5 s):
        // bounded by the wall clock (1.5 s, as `eventually` was), it woke after the holders let
        // go, saw the deadline passed and gave up while the work still had turns to take.
        let holders = ProcessInfo.processInfo.activeProcessorCount + 2
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<holders {
            Task.detached { _ = release.wait(timeout: .now() + 3) }
        }
        let turns = Atomic<Int>(0)
        Task.detached {
            for _ in 0..<20 {
                try? await Task.sleep(for: .milliseconds(1))
                turns.add(1, ordering: .relaxed)
            }
        }
        let seen = await waitUntil(looks: 1_500) { turns.load(ordering: .relaxed) == 20 }
        for _ in 0..<holders { release.signal() }
        #expect(seen, "the looks ran out while the work waited for a thread (\(turns.load(ordering: .relaxed)) of 20 turns)")
    }

    @Test("waitUntil gives up after its looks when the condition never holds")
    func looksRunOut() async {
        #expect(await waitUntil(looks: 50) { false } == false)
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
