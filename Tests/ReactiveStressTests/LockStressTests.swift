import Foundation
import Testing
import Reactive
import ReactiveTestSupport

/// The core's `Lock`: a compare-and-swap fast path, and a shared parking lot for waiters. These
/// tests keep it contended (more threads than the machine's cores), so waiters really sleep and
/// are woken; run under ThreadSanitizer they also check that what the lock protects is ordered.
@Suite("Stress: Lock", .timeLimit(.minutes(1)))
struct LockStressTests {
    /// State that only the lock protects: plain stored properties, no atomics.
    final class Guarded: @unchecked Sendable {
        // @unchecked: `count` and `holder` are read and written only inside `lock.guarded`.
        let lock = Lock()
        var count = 0
        var holder: Int?
        var overlaps = 0
    }

    @Test("eight threads incrementing under one lock: never two inside at once, no update lost")
    func oneLockManyThreads() {
        let guarded = Guarded()
        let perThread = 20_000
        let finished = runConcurrently(threads: 8) { thread in
            for _ in 0..<perThread {
                guarded.lock.guarded {
                    if guarded.holder != nil { guarded.overlaps += 1 }
                    guarded.holder = thread
                    guarded.count += 1
                    guarded.holder = nil
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish (a waiter was never woken?)")
        #expect(guarded.lock.guarded { guarded.count } == 8 * perThread)
        #expect(guarded.lock.guarded { guarded.overlaps } == 0)
    }

    @Test("a holder that keeps the lock a while: the others go to sleep, and every one is woken")
    func waitersSleepAndWake() {
        // Holding the lock for 200 µs outlasts the brief spin, so the other threads park.
        let guarded = Guarded()
        let finished = runConcurrently(threads: 6) { thread in
            for round in 0..<200 {
                guarded.lock.guarded {
                    if guarded.holder != nil { guarded.overlaps += 1 }
                    guarded.holder = thread
                    if round % 20 == thread { usleep(200) }
                    guarded.count += 1
                    guarded.holder = nil
                }
            }
        }
        #expect(finished, "watchdog: threads did not finish (a waiter was never woken?)")
        #expect(guarded.lock.guarded { guarded.count } == 6 * 200)
        #expect(guarded.lock.guarded { guarded.overlaps } == 0)
    }

    @Test("many locks sharing parking slots: each keeps its own count, no waiter is lost")
    func manyLocksSharedSlots() {
        // More locks than parking slots, so waiters of different locks share a slot.
        let counters = (0..<200).map { _ in Lock(0) }
        let rounds = 20_000
        let finished = runConcurrently(threads: 6) { thread in
            var index = thread
            for _ in 0..<rounds {
                index = (index &* 31 &+ 7) % counters.count
                counters[index].withLock { $0 += 1 }
                // The first few locks are hot: threads collide on them all the time.
                counters[index % 3].withLock { $0 += 1 }
            }
        }
        #expect(finished, "watchdog: threads did not finish (a waiter was never woken?)")
        let total = counters.reduce(0) { sum, counter in sum + counter.withLock { $0 } }
        #expect(total == 6 * rounds * 2)
    }

    @Test("withLock returns the body's result and rethrows its error, releasing the lock either way")
    func resultAndError() {
        struct Boom: Error {}
        let lock = Lock([1, 2])
        #expect(lock.withLock { $0.append(3); return $0.count } == 3)
        #expect(throws: Boom.self) { try lock.withLock { _ in throw Boom() } }
        // Still free: a second thread can take it.
        let finished = runConcurrently(threads: 4) { _ in
            for _ in 0..<1_000 { lock.withLock { $0.append(0) } }
        }
        #expect(finished)
        #expect(lock.withLock { $0.count } == 3 + 4_000)
    }
}
