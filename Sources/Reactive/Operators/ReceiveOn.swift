extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The subscription itself is handed to the subscriber at once, on the subscribing thread, so
    /// a value sent right after subscribing is never lost (C41). Values keep their order even on a
    /// concurrent queue, and are delivered one at a time. `request` and `cancel` go straight
    /// upstream; `cancel` discards deliveries still queued. After `cancel()` returns nothing new is
    /// delivered; a delivery already running on the scheduler's thread finishes (C15).
    ///
    /// ```swift
    /// subject.receive(on: DispatchQueue.main).sink { updateUI($0) }
    /// ```
    /// - Parameters:
    ///   - scheduler: Where the subscriber receives values and the completion.
    ///   - options: Scheduler options for each delivery.
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

        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
            private let outbox: SerialOutbox<Downstream>
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
                outbox = SerialOutbox(downstream)
                self.scheduler = scheduler
                self.options = options
            }

            var description: String { "ReceiveOn" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                outbox.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                guard lock.guarded({ status.isSubscribed }) else { return .none }
                if outbox.enqueue(.value(input)) { scheduleDrain() }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard lock.guarded({ status.terminate() }) != nil else { return }
                if outbox.enqueue(.completion(completion)) { scheduleDrain() }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0, let upstream = lock.guarded({ status.subscription }) else { return }
                upstream.request(demand)
            }

            func cancel() {
                let upstream = lock.guarded { status.terminate() }
                outbox.cancel()
                upstream?.cancel()
            }

            private func scheduleDrain() {
                guard outbox.claimScheduledDrain() else { return }
                scheduler.schedule(options: options, schedulerAction { self.drain() })
            }

            private func drain() {
                let more = outbox.drain()
                if more > 0, let upstream = lock.guarded({ status.subscription }) { upstream.request(more) }
            }
        }
    }
}
