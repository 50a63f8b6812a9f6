import Foundation
import Reactive
import Synchronization

/// Runs `body` on `threads` explicit threads released together by a start gate, and waits for
/// all of them with a watchdog: returns `false` if they did not all finish within `timeout`.
///
/// Explicit threads (not `concurrentPerform` or short task groups) make races really overlap,
/// which is what ThreadSanitizer needs to see them.
public func runConcurrently(threads: Int = 4, timeout: Double = 10, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        let thread = Thread {
            gate.wait()
            body(index)
            done.signal()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
    for _ in 0..<threads { gate.signal() }
    let deadline = DispatchTime.now() + timeout
    for _ in 0..<threads {
        if done.wait(timeout: deadline) == .timedOut { return false }
    }
    return true
}

/// A thread-safe counter and log for stress tests.
public final class Counter: Sendable {
    private let state = Lock<Int>(0)
    public init() {}
    @discardableResult public func increment(by n: Int = 1) -> Int {
        state.withLock {
            $0 += n; return $0
        }
    }
    public var value: Int { state.withLock { $0 } }
}

/// Detects overlapping calls: `enter()` returns false if another call is already inside.
public final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    public init() {}
    public func enter() {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
    }
    public func leave() { inside.subtract(1, ordering: .acquiringAndReleasing) }
    public var overlapCount: Int { overlaps.load(ordering: .relaxed) }
}

/// Runs `body` on a thread of its own and reports whether it returned within `seconds`: a
/// deadlocked body keeps its thread, not the test run.
///
/// ```swift
/// #expect(returnsInTime { subscriber.cancel() })
/// ```
public func returnsInTime(_ seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// Awaits `operation` for at most `seconds`: its result, or `nil` when it has not returned by
/// then (the hung task is left behind, so a hang fails one check instead of stalling the run).
///
/// The operation runs on a serial queue of its own (`WatchdogExecutor`), not on the shared
/// cooperative pool: in a parallel run a thousand tests queue there (two threads on a two-core
/// machine), and the deadline must measure the operation, not its wait for a thread.
///
/// ```swift
/// let result = await withinTime { try await Empty<Int, Never>().async() }
/// #expect(result != nil, "async() hung")
/// ```
public func withinTime<T: Sendable>(
    _ seconds: Double = 10, _ operation: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>?, Never>) in
        // Whichever comes first resumes: the operation's end or the deadline.
        let claimed = Lock<Bool>(false)
        Task(executorPreference: WatchdogExecutor()) {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            if claimed.withLock({ already in
                defer { already = true }; return !already
            }) {
                continuation.resume(returning: result)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if claimed.withLock({ already in
                defer { already = true }; return !already
            }) {
                continuation.resume(returning: nil)
            }
        }
    }
}

/// Waits until `condition` holds, looking every `interval`, at most `looks` times: whether it
/// held. A watchdog, not a timing assertion (on a healthy run the condition holds within a few
/// looks), for work the test cannot drive itself.
///
/// The bound counts looks, not seconds. In the parallel run a thousand tests share the
/// cooperative pool (two threads on a two-core machine), and synchronous ones hold both threads
/// for seconds: a wait bounded by a wall-clock deadline woke after the deadline had passed and
/// gave up, while the task it waited for, queued behind the same tests, had not had its turn
/// (`IterationProbe.settled()` failed `FlatMapLatestTests.switchesToLatest` so in CI). Each look
/// needs a turn on the pool itself, so a look is only spent when the pool moves; and each look
/// sleeps at least `interval`, so `looks` × `interval` is the least time a hang takes to show.
///
/// ```swift
/// #expect(await waitUntil { subscriber.completion != nil })
/// ```
public func waitUntil(
    looks: Int = 120_000, every interval: Duration = .milliseconds(1), _ condition: () -> Bool
) async -> Bool {
    for _ in 0..<looks {
        if condition() { return true }
        // A short sleep, not a bare yield: spinning on the two-thread cooperative pool starves the
        // very tasks whose progress this waits for.
        try? await Task.sleep(for: interval)
    }
    return condition()
}

/// A task executor running its jobs on a serial Dispatch queue of its own, which gets a thread
/// even when every thread of the cooperative pool is busy or blocked.
public final class WatchdogExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "withinTime")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
