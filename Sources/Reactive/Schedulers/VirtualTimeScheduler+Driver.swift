extension VirtualTimeScheduler {
    /// Deterministic driver for async code (DESIGN.md "Virtual time, including async steps").
    ///
    /// Repeatedly drains `executor` and runs the actions due now until neither has anything to
    /// run, then advances to the next deadline; stops when nothing is runnable or pending, or as
    /// soon as `until()` returns true (checked before each step). Everything runs on the calling
    /// thread, so the same program gives the same output every time.
    ///
    /// A task that waits on something outside the executor (a real `Task.sleep`, I/O) is not
    /// pending here: the loop returns when only such tasks remain. A repeating action that is never
    /// cancelled (an endless `interval`) keeps the loop going: pass an `until` that ends it.
    ///
    /// - Parameters:
    ///   - executor: The executor every task of the program prefers.
    ///   - until: Stops the loop early when it returns true.
    ///
    /// ```swift
    /// scheduler.run(draining: executor) { subscriber.completion != nil }
    /// ```
    public func run(draining executor: ManualTaskExecutor, until: () -> Bool = { false }) {
        while !until() {
            if executor.drain() > 0 { continue }
            if until() { return }
            if drive(to: state.withLock { $0.now }, movesNow: false) > 0 { continue }
            guard let next = nextDeadline else {
                // One last look: an action may have enqueued a job as the queue emptied.
                if executor.hasPendingJobs { continue }
                return
            }
            drive(to: next.nanoseconds, movesNow: true)
        }
    }
}
