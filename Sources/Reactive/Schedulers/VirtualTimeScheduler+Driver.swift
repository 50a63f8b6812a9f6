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

extension VirtualTimeScheduler {
    /// Runs everything that can run at the current instant: the executor's jobs and the actions due
    /// now, again while either makes more, without moving time. What a paused run does after a
    /// value was sent into it (`plumb`'s `:step`).
    ///
    /// - Parameter executor: The executor every task of the program prefers.
    /// - Returns: How many jobs and actions ran.
    ///
    /// ```swift
    /// subject.send(1)
    /// scheduler.settle(draining: executor)   // a debounce's timer is armed, nothing due yet
    /// ```
    @discardableResult
    public func settle(draining executor: ManualTaskExecutor) -> Int {
        var count = 0
        while true {
            // A drain runs until its queue is empty, so when neither ran anything, nothing is left
            // at this instant (and a call from inside a job or an action, where both return 0,
            // cannot loop).
            let ran = executor.drain() + drive(to: state.withLock { $0.now }, movesNow: false)
            if ran == 0 { return count }
            count += ran
        }
    }

    /// One instant forward: settles the current instant, then, when something is scheduled later,
    /// moves to the earliest deadline and settles that instant (every action due then, and what
    /// they start at the same time).
    ///
    /// - Parameter executor: The executor every task of the program prefers.
    /// - Returns: The instant reached, or nil when nothing is scheduled (time does not move).
    ///
    /// ```swift
    /// while let instant = scheduler.step(draining: executor) { print(instant) }
    /// ```
    @discardableResult
    public func step(draining executor: ManualTaskExecutor) -> SchedulerTimeType? {
        settle(draining: executor)
        guard let next = nextDeadline else { return nil }
        drive(to: next.nanoseconds, movesNow: true)
        settle(draining: executor)
        return next
    }
}
