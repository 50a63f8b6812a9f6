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
///
/// A tick that finds no demand is dropped, as Combine's `Timer` publisher drops it, and the timer
/// is paused there: while nobody asks, no tick is scheduled at all (an `interval 1ns` waiting on a
/// slow `asyncMap` costs nothing, on the virtual clock or a real one). The next request re-arms it
/// at the next tick of the original grid, and ticks are still numbered from the subscription, the
/// dropped ones counted.
final class IntervalSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible
where Downstream.Input == Int {
    private let lock = Lock()
    @exclusivity(unchecked) private var downstream: Downstream?
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var tickCount = 0
    @exclusivity(unchecked) private var delivering = false
    @exclusivity(unchecked) private var timer: AnyCancellable?
    /// Paused after a tick without demand: the timer is cancelled until the next request.
    @exclusivity(unchecked) private var paused = false
    /// Schedules the ticks again from the next one on the grid; returns it and its number.
    @exclusivity(unchecked) private var rearm: (() -> (AnyCancellable, Int))?

    init(downstream: Downstream) { self.downstream = downstream }

    var description: String { "Interval" }

    func start<S: Scheduler>(period: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions?) {
        guard lock.guarded({ downstream != nil }) else { return }
        let origin = scheduler.now
        // n periods, by doubling and adding: a stride's own numbers are in its unit (a literal
        // `1` is one second for DispatchQueue), so it is never multiplied by a count.
        func periods(_ n: Int) -> S.SchedulerTimeType.Stride {
            var result = S.SchedulerTimeType.Stride.zero
            var power = period
            var rest = n
            while rest > 0 {
                if rest & 1 == 1 { result = result + power }
                rest >>= 1
                if rest > 0 { power = power + power }
            }
            return result
        }
        // Tick n (from 0) is due at origin + (n + 1) periods.
        func schedule(from n: Int) -> AnyCancellable {
            AnyCancellable(
                scheduler.schedule(
                    after: origin.advanced(by: periods(n + 1)), interval: period, tolerance: scheduler.minimumTolerance,
                    options: options, schedulerAction { self.tick() }))
        }
        // How many ticks are due by now: the largest n with n periods <= now - origin (doubling,
        // then halving: strides only multiply and compare).
        func ticksDue() -> Int {
            let elapsed = origin.distance(to: scheduler.now)
            guard period > .zero, periods(1) <= elapsed else { return 0 }
            var low = 1
            var high = 2
            while high < Int.max / 2, periods(high) <= elapsed {
                low = high
                high *= 2
            }
            while high - low > 1 {
                let mid = low + (high - low) / 2
                if periods(mid) <= elapsed { low = mid } else { high = mid }
            }
            return low
        }
        let handle = schedule(from: 0)
        let stale = lock.guarded { () -> Bool in
            guard downstream != nil else { return true }
            timer = handle
            rearm = {
                let next = ticksDue()
                return (schedule(from: next), next)
            }
            return false
        }
        if stale { handle.cancel() }
    }

    private func tick() {
        var pause: AnyCancellable?
        let delivery = lock.guarded { () -> (Downstream, Int)? in
            let number = tickCount
            tickCount += 1
            guard let downstream, !delivering else { return nil }
            guard demand > 0 else {
                // Nobody asks: stop ticking until someone does (`request` re-arms).
                if !paused, rearm != nil {
                    paused = true
                    pause = timer
                    timer = nil
                }
                return nil
            }
            demand -= 1
            delivering = true
            return (downstream, number)
        }
        pause?.cancel()
        guard let (target, number) = delivery else { return }
        let more = target.receive(number)
        lock.guarded {
            delivering = false
            if downstream != nil { demand += more }
        }
    }

    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let restart = lock.guarded { () -> (() -> (AnyCancellable, Int))? in
            guard downstream != nil else { return nil }
            demand += more
            guard paused else { return nil }
            paused = false
            return rearm
        }
        guard let restart else { return }
        let (handle, next) = restart()
        let stale = lock.guarded { () -> Bool in
            guard downstream != nil, !paused, timer == nil else { return true }
            timer = handle
            tickCount = next
            return false
        }
        if stale { handle.cancel() }
    }

    func cancel() {
        let (handle, dropped, rearming) = lock.guarded { () -> (AnyCancellable?, Downstream?, (() -> (AnyCancellable, Int))?) in
            defer {
                timer = nil
                downstream = nil
                rearm = nil
            }
            return (timer, downstream, rearm)
        }
        _ = dropped
        _ = rearming
        handle?.cancel()
    }
}
