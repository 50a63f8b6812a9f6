extension Publisher {
    /// Replaces each value with the time since the previous value (for the first value: since
    /// subscription), measured on `scheduler`'s clock.
    ///
    /// Values are not moved to the scheduler; demand passes straight through.
    ///
    /// ```swift
    /// // on a VirtualTimeScheduler, values at 10ms and 25ms after subscribing:
    /// source.measureInterval(using: scheduler)   // .milliseconds(10), .milliseconds(15)
    /// ```
    /// - Parameters:
    ///   - scheduler: Whose `now` is read.
    ///   - options: Unused; kept for Combine compatibility.
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher `measureInterval(using:options:)` returns.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are timed.
        public let upstream: Upstream
        /// Whose clock is read.
        public let scheduler: Context

        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
            @exclusivity(unchecked) private var downstream: Downstream?
            @exclusivity(unchecked) private var last: Context.SchedulerTimeType?
            private let scheduler: Context

            init(downstream: Downstream, scheduler: Context) {
                self.downstream = downstream
                self.scheduler = scheduler
            }

            var description: String { "MeasureInterval" }

            func receive(subscription: any Subscription) {
                let now = scheduler.now
                let target = lock.guarded { () -> Downstream? in
                    guard status.subscribe(subscription) else { return nil }
                    last = now
                    return downstream
                }
                guard let target else {
                    subscription.cancel()
                    return
                }
                target.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let now = scheduler.now
                let measured = lock.guarded { () -> (Downstream, Output)? in
                    guard status.isSubscribed, let downstream, let previous = last else { return nil }
                    last = now
                    return (downstream, previous.distance(to: now))
                }
                guard let (target, interval) = measured else { return .none }
                return target.receive(interval)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let target = lock.guarded { () -> Downstream? in
                    guard status.terminate() != nil else { return nil }
                    defer { downstream = nil }
                    return downstream
                }
                target?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0, let upstream = lock.guarded({ status.subscription }) else { return }
                upstream.request(demand)
            }

            func cancel() {
                let (upstream, dropped) = lock.guarded { () -> ((any Subscription)?, Downstream?) in
                    defer { downstream = nil }
                    return (status.terminate(), downstream)
                }
                _ = dropped
                upstream?.cancel()
            }
        }
    }
}
