/// A `TaskExecutor` (SE-0417) whose jobs run only when ``drain()`` is called: FIFO, on the draining
/// thread, one at a time.
///
/// Tasks opt in with `Task(executorPreference:)` (child tasks inherit it); the tasks this module's
/// operators start opt in through `TaskSpawning.preferredExecutor`. ``ManualClock/run(draining:until:)``
/// drains it and moves a ``ManualClock``, which makes a run reproducible.
///
/// ```swift
/// let executor = ManualExecutor()
/// Task(executorPreference: executor) { print("ran") }
/// executor.drain()   // prints "ran"
/// ```
public final class ManualExecutor: TaskExecutor, Sendable {
    private struct State {
        /// Queued jobs; those before `head` have run (a FIFO without shifting the array per job).
        var jobs: [UnownedJob] = []
        var head = 0
        var draining = false
    }

    private let state = StateLock(State())

    /// An executor with no jobs.
    public init() {}

    /// Queues `job`; it runs in the next ``drain()``.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
    }

    /// Whether a job waits to run.
    public var hasPendingJobs: Bool { state.withLock { $0.head < $0.jobs.count } }

    /// Runs queued jobs, and the jobs they queue, in FIFO order until none is left.
    ///
    /// One thread drains at a time: a `drain()` from inside a job, or from another thread while one
    /// drains, returns 0 at once (the running drain runs its jobs).
    ///
    /// - Returns: How many jobs ran.
    @discardableResult
    public func drain() -> Int {
        let starts = state.withLock { s -> Bool in
            defer { s.draining = true }
            return !s.draining
        }
        guard starts else { return 0 }
        var count = 0
        while let job = takeJob() {
            job.runSynchronously(on: asUnownedTaskExecutor())
            count += 1
        }
        return count
    }

    /// The oldest job, or nil after marking the drain over (under the same lock, so a job queued
    /// meanwhile is never stranded without a drainer knowing).
    private func takeJob() -> UnownedJob? {
        state.withLock { s -> UnownedJob? in
            guard s.head < s.jobs.count else {
                s.jobs.removeAll(keepingCapacity: true)
                s.head = 0
                s.draining = false
                return nil
            }
            let job = s.jobs[s.head]
            s.head += 1
            // Drop the run jobs now and then, so a queue that never empties does not grow forever.
            if s.head >= 1024 && s.head * 2 >= s.jobs.count {
                s.jobs.removeFirst(s.head)
                s.head = 0
            }
            return job
        }
    }
}
