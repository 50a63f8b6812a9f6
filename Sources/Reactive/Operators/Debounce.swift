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

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            private var status = SubscriptionStatus.awaitingSubscription
            private var demand = Subscribers.Demand.none
            private var pending: Input?
            /// Which value the running timer belongs to; a newer value makes older timers stale.
            private var generation: UInt64 = 0
            private var timer: OneShotTimer?
            private let outbox: SerialOutbox<Downstream>
            private let dueTime: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Debounce) {
                outbox = SerialOutbox(downstream)
                dueTime = publisher.dueTime
                scheduler = publisher.scheduler
                options = publisher.options
            }

            var description: String { "Debounce" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                outbox.receive(subscription: self)
                subscription.request(.unlimited)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let started = lock.guarded { () -> (UInt64, OneShotTimer?)? in
                    guard status.isSubscribed else { return nil }
                    generation &+= 1
                    pending = input
                    defer { timer = nil }
                    return (generation, timer)
                }
                guard let (current, previous) = started else { return .none }
                previous?.cancel()
                let next = OneShotTimer.schedule(
                    on: scheduler, after: scheduler.now.advanced(by: dueTime), options: options,
                    schedulerAction { self.fire(current) })
                let stale = lock.guarded { () -> Bool in
                    guard status.isSubscribed, generation == current else { return true }
                    timer = next
                    return false
                }
                if stale { next.cancel() }
                return .none
            }

            private func fire(_ current: UInt64) {
                let value = lock.guarded { () -> Input? in
                    guard status.isSubscribed, generation == current, let value = pending else { return nil }
                    pending = nil
                    timer = nil
                    guard demand > 0 else { return nil }
                    demand -= 1
                    return value
                }
                guard let value else { return }
                outbox.enqueue(.value(value))
                let more = outbox.drain()
                if more > 0 { lock.guarded { demand += more } }
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let running = lock.guarded { () -> OneShotTimer?? in
                    guard status.terminate() != nil else { return nil }
                    pending = nil
                    defer { timer = nil }
                    return .some(timer)
                }
                guard let running else { return }
                running?.cancel()
                if outbox.enqueue(.completion(completion)), outbox.claimScheduledDrain() {
                    scheduler.schedule(options: options, schedulerAction { _ = self.outbox.drain() })
                }
            }

            func request(_ more: Subscribers.Demand) {
                guard more > 0 else { return }
                lock.guarded { if status.isSubscribed { demand += more } }
            }

            func cancel() {
                let (upstream, running) = lock.guarded { () -> ((any Subscription)?, OneShotTimer?) in
                    pending = nil
                    defer { timer = nil }
                    return (status.terminate(), timer)
                }
                outbox.cancel()
                running?.cancel()
                upstream?.cancel()
            }
        }
    }
}
