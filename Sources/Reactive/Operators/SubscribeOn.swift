extension Publisher {
    /// Subscribes to this publisher, and sends it `request` and `cancel`, on `scheduler`.
    ///
    /// Values and the completion are not moved: they arrive on whatever thread upstream sends
    /// them (use `receive(on:)` for that). The subscriber gets its subscription on the scheduler,
    /// once upstream's subscription arrives there.
    ///
    /// ```swift
    /// expensiveSource.subscribe(on: DispatchQueue.global()).receive(on: DispatchQueue.main)
    /// ```
    /// - Parameters:
    ///   - scheduler: Where the subscription, requests and cancellation happen.
    ///   - options: Scheduler options for those actions.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher `subscribe(on:options:)` returns.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on the scheduler.
        public let upstream: Upstream
        /// Where subscribing, requests and cancellation happen.
        public let scheduler: Context
        /// Options for those actions.
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options, schedulerAction { upstream.subscribe(inner) })
        }

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
            @exclusivity(unchecked) private var downstream: Downstream?
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
                self.downstream = downstream
                self.scheduler = scheduler
                self.options = options
            }

            var description: String { "SubscribeOn" }

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

            func receive(_ input: Input) -> Subscribers.Demand {
                guard let target = lock.guarded({ status.isSubscribed ? downstream : nil }) else { return .none }
                return target.receive(input)
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
                scheduler.schedule(options: options, schedulerAction { upstream.request(demand) })
            }

            func cancel() {
                let (upstream, dropped) = lock.guarded { () -> ((any Subscription)?, Downstream?) in
                    defer { downstream = nil }
                    return (status.terminate(), downstream)
                }
                _ = dropped
                guard let upstream else { return }
                scheduler.schedule(options: options, schedulerAction { upstream.cancel() })
            }
        }
    }
}
