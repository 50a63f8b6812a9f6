extension ManualClock {
    /// Advance until idle: runs every runnable job of `executor`, and only when none is left wakes
    /// the next sleeper (``wakeNext()``: earliest deadline, ties in the order they went to sleep),
    /// moving the clock to its deadline; sleepers due at the same instant wake one at a time, each
    /// after everything the previous one set off has run. Stops when no job is queued and nobody
    /// sleeps, or as soon as `until()` returns true (checked before each step).
    ///
    /// Everything runs on the calling thread, so the same program gives the same trace every time.
    /// A task waiting on something outside the executor and the clock (real I/O, another clock) is
    /// not pending here: the loop returns when only such tasks remain. Start the program's tasks
    /// with `Task(executorPreference: executor)` inside
    /// `TaskSpawning.$preferredExecutor.withValue(executor)`, so operators' tasks run here too.
    ///
    /// - Parameters:
    ///   - executor: The executor every task of the run prefers.
    ///   - until: Stops the loop early when it returns true.
    ///
    /// ```swift
    /// let clock = ManualClock(), executor = ManualExecutor()
    /// Task(executorPreference: executor) { try await clock.sleep(for: .seconds(5)); print("woke") }
    /// clock.run(draining: executor)   // prints "woke"; clock.now is 5 seconds
    /// ```
    public func run(draining executor: ManualExecutor, until: () -> Bool = { false }) {
        while !until() {
            if executor.drain() > 0 { continue }
            if !wakeNext() {
                // A sleeper's cancellation may have queued a job as the queue emptied.
                if executor.hasPendingJobs { continue }
                return
            }
        }
    }
}
