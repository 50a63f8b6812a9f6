extension Publisher {
    /// Delivers every value, and the completion, `interval` later, on `scheduler`.
    ///
    /// Pinned behaviour (C39): each value is delivered `interval` after upstream sent it, in
    /// order. The completion is delayed too, finished *and* failure: it arrives `interval` after
    /// upstream sent it, after every earlier value. Demand passes straight upstream. Cancelling
    /// cancels every pending timer and discards the values they held.
    ///
    /// ```swift
    /// Just(1).delay(for: .milliseconds(30), scheduler: DispatchQueue.global())
    /// ```
    /// - Parameters:
    ///   - interval: How long to hold each signal.
    ///   - tolerance: Allowed lateness, passed to the scheduler.
    ///   - scheduler: Where signals are delivered.
    ///   - options: Scheduler options for the deliveries.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
            options: options)
    }
}

extension Publishers {
    /// The publisher `delay(for:tolerance:scheduler:options:)` returns.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose signals are delayed.
        public let upstream: Upstream
        /// How long each signal is held.
        public let interval: Context.SchedulerTimeType.Stride
        /// Allowed lateness.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where signals are delivered.
        public let scheduler: Context
        /// Options for the deliveries.
        public let options: Context.SchedulerOptions?

        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
            /// The timers of held signals, oldest first.
            @exclusivity(unchecked) private var timers: [OneShotTimer] = []
            @exclusivity(unchecked) private var cancelled = false
            private let outbox: SerialOutbox<Downstream>
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Delay) {
                outbox = SerialOutbox(downstream)
                interval = publisher.interval
                scheduler = publisher.scheduler
                options = publisher.options
            }

            var description: String { "Delay" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                outbox.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                guard lock.guarded({ status.isSubscribed }) else { return .none }
                hold(.value(input))
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard lock.guarded({ status.terminate() }) != nil else { return }
                hold(.completion(completion))
            }

            /// Queues the signal, held, and schedules the timer that releases it.
            private func hold(_ event: SerialOutbox<Downstream>.Event) {
                guard outbox.enqueue(event, held: true) else { return }
                // Deadlines only grow, so each firing releases the oldest held signal: order is
                // kept even when a concurrent queue runs two timers out of order.
                let timer = OneShotTimer.schedule(
                    on: scheduler, after: scheduler.now.advanced(by: interval), options: options,
                    schedulerAction { self.fire() })
                let stale = lock.guarded { () -> Bool in
                    if cancelled { return true }
                    // Fired timers sit at the front; drop them so the list stays short.
                    let done = timers.prefix { $0.isFinished }.count
                    timers.removeFirst(done)
                    timers.append(timer)
                    return false
                }
                if stale { timer.cancel() }
            }

            private func fire() {
                outbox.release()
                let more = outbox.drain()
                if more > 0, let upstream = lock.guarded({ status.subscription }) { upstream.request(more) }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0, let upstream = lock.guarded({ status.subscription }) else { return }
                upstream.request(demand)
            }

            func cancel() {
                let (upstream, pending) = lock.guarded { () -> ((any Subscription)?, [OneShotTimer]) in
                    defer { timers = [] }
                    cancelled = true
                    return (status.terminate(), timers)
                }
                outbox.cancel()
                for timer in pending { timer.cancel() }
                upstream?.cancel()
            }
        }
    }
}
