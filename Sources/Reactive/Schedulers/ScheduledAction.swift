/// Carries a caller's scheduler action to the thread that runs it.
///
/// `Scheduler.schedule` takes `() -> Void`, as Combine's does, so custom schedulers and
/// `scheduler.schedule { count += 1 }` compile unchanged. A scheduler that runs the action on
/// another thread (a dispatch queue, an operation queue, a run loop, a virtual-time driver) moves
/// it there through this box.
@usableFromInline
struct ScheduledAction: @unchecked Sendable {
    // @unchecked: the caller hands the action over to run once (or once per tick) on the scheduler's thread; guarding what it captures is the caller's part of the Scheduler contract, as in Combine.
    @usableFromInline let run: () -> Void

    @inlinable
    init(_ run: @escaping () -> Void) { self.run = run }

    /// The action as a `@Sendable` closure, for APIs that send it to another thread.
    @inlinable
    var sendable: @Sendable () -> Void {
        let box = self
        return { box.run() }
    }
}
