extension Publisher {
    /// Publishes a value only after `dueTime` passes with no newer value.
    ///
    /// Each value restarts the timer; when it fires, the latest value is delivered on `scheduler`
    /// if the subscriber has demand (otherwise it is dropped). Upstream is asked for `.unlimited`.
    ///
    /// Pinned behaviour (C39), as in Combine: when upstream completes, a value still waiting for
    /// its quiet period is **dropped**, and the completion (finished or failure) is delivered at
    /// once on the scheduler, not delayed. Cancelling cancels the pending timer.
    ///
    /// ```swift
    /// searchText.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    /// // with a 3-tick debounce:   "-a-b------c----|"  gives  "------b------c-|"
    /// ```
    /// - Parameters:
    ///   - dueTime: How long upstream must stay quiet.
    ///   - scheduler: Where values and the completion are delivered.
    ///   - options: Scheduler options for the timers and deliveries.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher `debounce(for:scheduler:options:)` returns.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are debounced.
        public let upstream: Upstream
        /// How long upstream must stay quiet before a value is delivered.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where values and the completion are delivered.
        public let scheduler: Context
        /// Options for the timers and deliveries.
        public let options: Context.SchedulerOptions?

        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}
