/// Ordered, serialised delivery to one downstream from any thread.
///
/// Time operators produce signals on two threads at once (upstream's, and the scheduler's timer
/// actions). They put every signal for the downstream here; one thread at a time delivers queued
/// signals in order (a second caller returns at once and the first picks its signals up), so the
/// downstream never sees overlapping calls (C25) and a `request` from inside `receive` does not
/// recurse (C20). Signals may be *held* (queued but not yet deliverable) and released later, in
/// order: `delay` holds each value until its timer fires. After a completion is queued nothing more
/// is accepted (C02); `cancel` drops the downstream and everything queued (C05, C41).
@usableFromInline
final class SerialOutbox<Downstream: Subscriber> {
    @usableFromInline
    enum Event {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    let lock = Lock()
    @exclusivity(unchecked) private var downstream: Downstream?
    @exclusivity(unchecked) private var queue: [Event?] = []
    @exclusivity(unchecked) private var head = 0
    /// How many queued events, from `head`, may be delivered.
    @exclusivity(unchecked) private var released = 0
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var drainScheduled = false

    init(_ downstream: Downstream) { self.downstream = downstream }

    /// Hands the subscription to the downstream. Call once, before anything else is delivered.
    func receive(subscription: any Subscription) {
        let target = lock.guarded { downstream }
        target?.receive(subscription: subscription)
    }

    /// Queues a signal; `held` signals wait for `release`. Returns false (dropping it) when a
    /// completion was already queued or the outbox was cancelled.
    @discardableResult
    func enqueue(_ event: Event, held: Bool = false) -> Bool {
        lock.guarded {
            guard downstream != nil, !closed else { return false }
            if case .completion = event { closed = true }
            queue.append(event)
            if !held { released = queue.count - head }
            return true
        }
    }

    /// Makes the oldest `count` held signals deliverable.
    func release(_ count: Int = 1) {
        lock.guarded { released = Swift.min(released + count, queue.count - head) }
    }

    /// Whether nothing is queued (held or not).
    var isEmpty: Bool { lock.guarded { head == queue.count } }

    /// Whether the downstream is gone (cancelled or completed).
    var isClosed: Bool { lock.guarded { closed || downstream == nil } }

    /// True when the caller should schedule a `drain` (none is scheduled yet); the flag clears
    /// when a drain starts.
    func claimScheduledDrain() -> Bool {
        lock.guarded {
            if drainScheduled || downstream == nil { return false }
            drainScheduled = true
            return true
        }
    }

    /// Delivers deliverable signals in order, unless another thread is delivering (then it returns
    /// at once and that thread delivers them). Returns the extra demand the downstream returned.
    func drain() -> Subscribers.Demand {
        let starts = lock.guarded { () -> Bool in
            drainScheduled = false
            if draining { return false }
            draining = true
            return true
        }
        guard starts else { return .none }
        var demand = Subscribers.Demand.none
        while true {
            let next = lock.guarded { () -> (Downstream, Event)? in
                guard let target = downstream, released > 0, let event = queue[head] else {
                    draining = false
                    return nil
                }
                queue[head] = nil
                head += 1
                released -= 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                if case .completion = event {
                    // Terminal: release the downstream (C17) and anything left.
                    downstream = nil
                    queue.removeAll()
                    head = 0
                    released = 0
                }
                return (target, event)
            }
            guard let (target, event) = next else { return demand }
            switch event {
            case .value(let value): demand += target.receive(value)
            case .completion(let completion): target.receive(completion: completion)
            }
        }
    }

    /// Drops the downstream and every queued signal; a delivery in progress on another thread
    /// finishes, nothing after it starts.
    func cancel() {
        let dropped = lock.guarded { () -> (Downstream?, [Event?]) in
            closed = true
            let dropped = (downstream, queue)
            downstream = nil
            queue = []
            head = 0
            released = 0
            return dropped
        }
        // Released here, outside the lock: deinits may re-enter.
        _ = dropped
    }
}

/// A one-shot timer that can be cancelled, on any scheduler.
///
/// `Scheduler.schedule(after:)` cannot be cancelled, so this uses the repeating form and stops it
/// after the first tick; the action runs at most once. Cancelling removes the pending action
/// (on a `VirtualTimeScheduler`, `pendingCount` drops), so cancelled operators leave no timers.
final class OneShotTimer: Cancellable, Sendable {
    private struct State {
        var handle: AnyCancellable?
        var fired = false
        var cancelled = false
    }

    private let state = Lock(State())

    /// Schedules `action` at `date`. Keep the timer: cancelling it (not dropping it) stops the action.
    static func schedule<S: Scheduler>(
        on scheduler: S, after date: S.SchedulerTimeType, options: S.SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> OneShotTimer {
        let timer = OneShotTimer()
        // Repeats are stopped after the first tick; a long interval keeps a slow stop harmless.
        let interval = S.SchedulerTimeType.Stride.seconds(3600)
        let handle = scheduler.schedule(after: date, interval: interval, tolerance: scheduler.minimumTolerance, options: options) {
            if timer.fire() { action() }
        }
        timer.attach(AnyCancellable(handle))
        return timer
    }

    /// Whether the action ran or the timer was cancelled.
    var isFinished: Bool { state.withLock { $0.fired || $0.cancelled } }

    private func fire() -> Bool {
        let (runs, handle) = state.withLock { s -> (Bool, AnyCancellable?) in
            if s.fired || s.cancelled { return (false, s.handle) }
            s.fired = true
            return (true, s.handle)
        }
        handle?.cancel()
        return runs
    }

    private func attach(_ handle: AnyCancellable) {
        let stopNow = state.withLock { s -> Bool in
            s.handle = handle
            return s.fired || s.cancelled
        }
        if stopNow { handle.cancel() }
    }

    func cancel() {
        let handle = state.withLock { s -> AnyCancellable? in
            s.cancelled = true
            return s.handle
        }
        handle?.cancel()
    }
}
