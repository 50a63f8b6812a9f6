import Foundation
import Reactive
import ReactiveTestSupport
import Synchronization

/// A task executor whose jobs run only when a test drains it, FIFO, on the test's thread: async
/// bridges become deterministic without sleeping.
final class DrainExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only state is the job queue inside a Mutex; jobs are run by `drain` alone.
    private let jobs = Lock<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
    }

    /// Runs jobs until none is runnable; returns how many ran.
    @discardableResult
    func drain() -> Int {
        var count = 0
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            count += 1
        }
        return count
    }

    var pending: Int { jobs.withLock { $0.count } }
}

/// Gates a test opens one by one: `wait(i)` suspends until `open(i)`, whichever comes first.
final class Gates: Sendable {
    private let state = Lock<(open: Set<Int>, waiting: [Int: CheckedContinuation<Void, Never>])>(([], [:]))

    func wait(_ id: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.open.contains(id) { return true }
                state.waiting[id] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open.insert(id)
            return state.waiting.removeValue(forKey: id)
        }
        waiter?.resume()
    }

    var waitingCount: Int { state.withLock { $0.waiting.count } }
}

/// A thread-safe record of strings, for what transforms saw.
final class BridgeLog: Sendable {
    private let entries = Lock<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// Tracks how many transforms run at once.
final class ConcurrencyMeter: Sendable {
    private let state = Lock<(now: Int, peak: Int)>((0, 0))
    func enter() {
        state.withLock {
            $0.now += 1; $0.peak = max($0.peak, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

/// Something to hold weakly: a leak check sees it released.
final class Tracked: Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// Waits until `condition` holds, for code on the global executor whose progress the test cannot
/// drive itself: at most 120,000 looks a millisecond apart (`waitUntil`), so at least 120 s
/// before a hang shows, however long the pool is held.
///
/// It was a wall-clock limit: `swift test --parallel` runs CPU-bound synchronous tests (the fuzz
/// suites) on the same two cooperative threads, and on a loaded 2-core machine they held both
/// for more than 30 s, so `asyncMap runs on the global executor too` saw no value at all within
/// its old 30 s limit although nothing was wrong with it. Counted looks are only spent while the
/// pool moves (`WatchdogTests.looksWhilePoolHeld`).
func eventually(_ condition: () -> Bool) async -> Bool {
    await waitUntil(looks: 120_000, condition)
}
