/// Moving virtual time one instant at a time, for a run the shell holds paused (`:step`,
/// `:next`, `:advance`). Real mode: nothing moves; each returns at once.
extension Runtime {
    /// Runs what can run at the current virtual instant (tasks, due actions), without moving time.
    ///
    /// ```swift
    /// session.execute(send)          // a value into a paused run
    /// runtime.settleVirtualTime()    // what it starts at this instant runs now
    /// ```
    public func settleVirtualTime() {
        guard let virtual else { return }
        virtual.scheduler.settle(draining: virtual.executor)
    }

    /// Settles the current instant, then moves to the next scheduled one and settles it.
    /// - Returns: The instant reached (ns of virtual time), or nil when nothing is scheduled.
    ///
    /// ```swift
    /// while let instant = runtime.stepVirtualTime() { print(instant) }
    /// ```
    @discardableResult
    public func stepVirtualTime() -> Int64? {
        guard let virtual else { return nil }
        return virtual.scheduler.step(draining: virtual.executor)?.nanoseconds
    }

    /// When the next scheduled action is due (ns of virtual time), nil when none is.
    public var nextVirtualDeadline: Int64? { virtual?.scheduler.nextDeadline?.nanoseconds }

    /// Moves virtual time to `nanoseconds` (never back), running what falls due on the way, then
    /// settles there.
    ///
    /// ```swift
    /// runtime.moveVirtualTime(toNanoseconds: runtime.nowNanoseconds() + 150_000_000)
    /// ```
    public func moveVirtualTime(toNanoseconds nanoseconds: Int64) {
        guard let virtual else { return }
        while let next = virtual.scheduler.nextDeadline, next.nanoseconds <= nanoseconds {
            virtual.scheduler.step(draining: virtual.executor)
        }
        virtual.scheduler.advance(to: .init(nanoseconds: nanoseconds))
        virtual.scheduler.settle(draining: virtual.executor)
    }
}
