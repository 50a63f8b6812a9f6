/// A `TaskExecutor` (SE-0417) whose jobs run only when `drain()` is called: FIFO, on the draining
/// thread, one at a time. With `VirtualTimeScheduler.run(draining:until:)` it makes async code
/// deterministic.
///
/// Tasks opt in with `Task(executorPreference: executor) { … }` (child tasks inherit the
/// preference); the core's task-starting operators take an `executorPreference:` parameter.
///
/// ```swift
/// let executor = ManualTaskExecutor()
/// Task(executorPreference: executor) { print("ran") }
/// executor.drain()   // prints "ran"
/// ```
public final class ManualTaskExecutor: TaskExecutor, Sendable {
    private let jobs = Lock<[UnownedJob]>([])
    private let draining = Lock(false)

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// Whether a job is waiting to run.
    public var hasPendingJobs: Bool { jobs.withLock { !$0.isEmpty } }

    /// Runs queued jobs, including those they enqueue, until none is left; returns how many ran.
    ///
    /// Only one thread drains at a time: a `drain()` from inside a job, or from another thread
    /// while one is draining, returns 0 at once (the running drain picks its jobs up).
    @discardableResult
    public func drain() -> Int {
        let starts = draining.withLock { busy -> Bool in
            defer { busy = true }
            return !busy
        }
        guard starts else { return 0 }
        defer { draining.withLock { $0 = false } }
        var count = 0
        while true {
            // Take the whole queue: jobs enqueued meanwhile wait for the next batch, so order stays FIFO.
            let batch = jobs.withLock { queue -> [UnownedJob] in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            if batch.isEmpty { return count }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            count += batch.count
        }
    }
}
