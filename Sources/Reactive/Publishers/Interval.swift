extension Publishers {
    /// A publisher of tick numbers 0, 1, 2, … one every `period` on `scheduler`.
    ///
    /// The timer starts when a subscriber attaches: tick `n` (counting from 0) happens at
    /// subscription + (n + 1) × period, on the scheduler's own repeating schedule, so ticks do
    /// not drift. Like Combine's `Timer` publisher, a tick that finds no demand is dropped: the
    /// numbers then skip (tick `n` is always published as `n`). It never finishes by itself;
    /// cancelling stops the timer.
    ///
    /// ```swift
    /// Publishers.interval(.seconds(1), scheduler: DispatchQueue.main)
    ///     .prefix(3)
    ///     .sink { print($0) }   // 0, 1, 2 — one a second
    /// ```
    /// - Parameters:
    ///   - period: The time between ticks (at least one nanosecond).
    ///   - scheduler: Where ticks happen and values are delivered.
    ///   - options: Scheduler options for the timer.
    public static func interval<S: Scheduler>(
        _ period: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Interval<S> {
        Interval(period: period, scheduler: scheduler, options: options)
    }

    /// The publisher `Publishers.interval(_:scheduler:options:)` returns.
    public struct Interval<Context: Scheduler>: Publisher {
        public typealias Output = Int
        public typealias Failure = Never

        /// The time between ticks.
        public let period: Context.SchedulerTimeType.Stride
        /// Where ticks happen.
        public let scheduler: Context
        /// Options for the timer.
        public let options: Context.SchedulerOptions?

        public init(period: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions? = nil) {
            self.period = period
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            let subscription = IntervalSubscription<S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start(period: period, scheduler: scheduler, options: options)
        }
    }
}

/// One subscriber's ticks. Ticks come from the scheduler; a tick that arrives while the previous
/// one is still being delivered (possible on a concurrent queue) is dropped, so deliveries never
/// overlap.
final class IntervalSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible
where Downstream.Input == Int {
    private let lock = Lock()
    @exclusivity(unchecked) private var downstream: Downstream?
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var tickCount = 0
    @exclusivity(unchecked) private var delivering = false
    @exclusivity(unchecked) private var timer: AnyCancellable?

    init(downstream: Downstream) { self.downstream = downstream }

    var description: String { "Interval" }

    func start<S: Scheduler>(period: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions?) {
        guard lock.guarded({ downstream != nil }) else { return }
        let handle = AnyCancellable(
            scheduler.schedule(
                after: scheduler.now.advanced(by: period), interval: period, tolerance: scheduler.minimumTolerance,
                options: options, schedulerAction { self.tick() }))
        let stale = lock.guarded { () -> Bool in
            guard downstream != nil else { return true }
            timer = handle
            return false
        }
        if stale { handle.cancel() }
    }

    private func tick() {
        let delivery = lock.guarded { () -> (Downstream, Int)? in
            let number = tickCount
            tickCount += 1
            guard let downstream, demand > 0, !delivering else { return nil }
            demand -= 1
            delivering = true
            return (downstream, number)
        }
        guard let (target, number) = delivery else { return }
        let more = target.receive(number)
        lock.guarded {
            delivering = false
            if downstream != nil { demand += more }
        }
    }

    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        lock.guarded { if downstream != nil { demand += more } }
    }

    func cancel() {
        let (handle, dropped) = lock.guarded { () -> (AnyCancellable?, Downstream?) in
            defer {
                timer = nil
                downstream = nil
            }
            return (timer, downstream)
        }
        _ = dropped
        handle?.cancel()
    }
}
