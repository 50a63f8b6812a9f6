extension Publisher {
    /// Publishes at most one value per `interval`: the first or the latest of each interval.
    ///
    /// Pinned behaviour, as Combine behaves (C39):
    /// - The first value is delivered at once (on `scheduler`), and starts an interval.
    /// - A value that arrives while an interval is running is held and delivered when that
    ///   interval ends, starting the next one: with `latest: true` newer values replace it, with
    ///   `latest: false` the first one held is kept and the rest are dropped.
    /// - A value that arrives after the interval ended, with nothing held, is delivered at once.
    /// - A value that would start an interval while the subscriber has no demand is dropped (a
    ///   held value took its demand when it was held). Upstream is asked for `.unlimited`.
    /// - On completion a held (trailing) value is still delivered at its time and the completion
    ///   follows right after it, so a failure may be delayed by up to `interval`; with nothing
    ///   held, the completion is delivered at once on the scheduler.
    /// - Cancelling cancels the pending delivery.
    ///
    /// ```swift
    /// // interval 3 ticks, latest: true:   "abc---d-e--|"  gives  "a--c--d--e-|"
    /// clicks.throttle(for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
    /// ```
    /// - Parameters:
    ///   - interval: The shortest time between two delivered values.
    ///   - scheduler: Where values and the completion are delivered.
    ///   - latest: Deliver the latest value of an interval (`true`) or the first (`false`).
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// The publisher `throttle(for:scheduler:latest:)` returns.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are throttled.
        public let upstream: Upstream
        /// The shortest time between two delivered values.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where values and the completion are delivered.
        public let scheduler: Context
        /// Whether the latest (`true`) or first (`false`) value of an interval is delivered.
        public let latest: Bool

        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}
