import Synchronization

extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The subscription itself is handed to the subscriber at once, on the subscribing thread, so
    /// a value sent right after subscribing is never lost (C41). Values keep their order even on a
    /// concurrent queue, and are delivered one at a time. Values sent while a delivery is pending
    /// join it: one scheduled action delivers everything queued until it finds nothing more (not
    /// one action per value, as in Combine), each value still at the time it was sent on a
    /// virtual-time scheduler. `request` and `cancel` go straight upstream; `cancel` discards
    /// deliveries still queued, the completion too (nothing arrives after a cancel, C05). After
    /// `cancel()` returns nothing new is delivered; a delivery already running on the scheduler's
    /// thread finishes (C15).
    ///
    /// ```swift
    /// subject.receive(on: DispatchQueue.main).sink { updateUI($0) }
    /// ```
    /// - Parameters:
    ///   - scheduler: Where the subscriber receives values and the completion.
    ///   - options: Scheduler options for each delivery.
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher `receive(on:options:)` returns.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose signals are moved.
        public let upstream: Upstream
        /// Where signals are delivered.
        public let scheduler: Context
        /// Options for each delivery.
        public let options: Context.SchedulerOptions?

        /// Creates the publisher; `receive(on:options:)` is the usual way.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnSubscription<Upstream, Context, S>(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

/// Moves signals to the scheduler in batches: a value sent while no drain is pending
/// schedules one action, and that action delivers everything queued up to the moment it
/// finds the queue empty (values sent meanwhile join the batch instead of scheduling more
/// actions). On a virtual-time scheduler every value is still delivered at the virtual
/// time it was sent at, in order.
///
/// The sender appends under the lock; the drain swaps the whole queue out under the lock
/// and delivers it outside, checking the `cancelled` flag before each value, so a cancel
/// (from any thread, or from inside `receive`) stops delivery at the next value.
@usableFromInline
final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    /// Values sent and not yet taken by a drain, oldest first.
    @usableFromInline @exclusivity(unchecked) var pending: [Input] = []
    /// Upstream's completion, to deliver after `pending`.
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    /// A drain is scheduled or running; cleared by the drain when it finds nothing queued.
    @usableFromInline @exclusivity(unchecked) var drainScheduled = false
    /// The batch being delivered. Only the drain touches it, and one drain runs at a time
    /// (`drainScheduled`), its start and end ordered by the lock.
    @usableFromInline @exclusivity(unchecked) var batch: [Input] = []
    /// Set by `cancel`; the drain checks it before each delivery.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    @usableFromInline var description: String { "ReceiveOn" }

    @inlinable
    func receive(subscription: any Subscription) {
        let target = lock.guarded { () -> Downstream? in
            guard status.subscribe(subscription) else { return nil }
            return downstream
        }
        guard let target else {
            subscription.cancel()
            return
        }
        target.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let schedules = lock.guarded { () -> Bool in
            guard status.isSubscribed else { return false }
            pending.append(input)
            if drainScheduled { return false }
            drainScheduled = true
            return true
        }
        if schedules { scheduleDrain() }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        var upstream: (any Subscription)?
        let schedules = lock.guarded { () -> Bool in
            upstream = status.terminate()
            guard upstream != nil else { return false }
            self.completion = completion
            if drainScheduled { return false }
            drainScheduled = true
            return true
        }
        upstream = nil  // dropped outside the lock
        if schedules { scheduleDrain() }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0, let upstream = lock.guarded({ status.subscription }) else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        let dropped = lock.guarded { () -> ((any Subscription)?, Downstream?, [Input]) in
            let dropped = (status.terminate(), downstream, pending)
            downstream = nil
            pending = []
            completion = nil
            return dropped
        }
        // The subscriber and queued values are released here, outside the lock.
        dropped.0?.cancel()
    }

    @inlinable
    func scheduleDrain() {
        scheduler.schedule(options: options, schedulerAction { self.drain() })
    }

    /// Delivers batches until nothing is queued, then asks upstream for the demand the
    /// downstream returned.
    @inlinable
    func drain() {
        var demand = Subscribers.Demand.none
        while true {
            let next = lock.guarded { () -> (Downstream, Subscribers.Completion<Failure>?)? in
                guard let target = downstream, !pending.isEmpty || completion != nil else {
                    drainScheduled = false
                    return nil
                }
                swap(&pending, &batch)
                let completion = self.completion
                if completion != nil {
                    // Terminal: release the downstream once it is delivered (C17).
                    self.completion = nil
                    downstream = nil
                }
                return (target, completion)
            }
            guard let (target, completion) = next else { break }
            for value in batch {
                if cancelled.load(ordering: .acquiring) { break }
                demand += target.receive(value)
            }
            batch.removeAll(keepingCapacity: true)
            if let completion {
                if !cancelled.load(ordering: .acquiring) { target.receive(completion: completion) }
                return
            }
        }
        if demand > 0, let upstream = lock.guarded({ status.subscription }) { upstream.request(demand) }
    }
}
