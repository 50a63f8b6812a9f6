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

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            private var status = SubscriptionStatus.awaitingSubscription
            private var demand = Subscribers.Demand.none
            private var held: Input?
            private var heldCompletion: Subscribers.Completion<Failure>?
            /// Whether a delivery is scheduled (for `held`, `heldCompletion`, or both).
            private var scheduled = false
            private var timer: OneShotTimer?
            private var lastEmission: Context.SchedulerTimeType?
            private var cancelled = false
            private let outbox: SerialOutbox<Downstream>
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let latest: Bool

            init(downstream: Downstream, publisher: Throttle) {
                outbox = SerialOutbox(downstream)
                interval = publisher.interval
                scheduler = publisher.scheduler
                latest = publisher.latest
            }

            var description: String { "Throttle" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                outbox.receive(subscription: self)
                subscription.request(.unlimited)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let now = scheduler.now
                let emitAt = lock.guarded { () -> Context.SchedulerTimeType? in
                    guard status.isSubscribed else { return nil }
                    if scheduled {
                        // The held value already took its demand; a newer one may replace it.
                        if latest, held != nil { held = input }
                        return nil
                    }
                    guard demand > 0 else { return nil }
                    demand -= 1
                    held = input
                    scheduled = true
                    guard let last = lastEmission else { return now }
                    return Swift.max(now, last.advanced(by: interval))
                }
                if let emitAt { schedule(at: emitAt, now: now) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let schedulesNow = lock.guarded { () -> Bool? in
                    guard status.terminate() != nil else { return nil }
                    heldCompletion = completion
                    if scheduled { return false }
                    scheduled = true
                    return true
                }
                if schedulesNow == true { schedule(at: scheduler.now, now: scheduler.now) }
            }

            private func schedule(at date: Context.SchedulerTimeType, now: Context.SchedulerTimeType) {
                if date <= now {
                    scheduler.schedule(options: nil, schedulerAction { self.emit() })
                    return
                }
                let next = OneShotTimer.schedule(on: scheduler, after: date, options: nil, schedulerAction { self.emit() })
                let stale = lock.guarded { () -> Bool in
                    if cancelled { return true }
                    timer = next
                    return false
                }
                if stale { next.cancel() }
            }

            private func emit() {
                let now = scheduler.now
                let signals = lock.guarded { () -> (Input?, Subscribers.Completion<Failure>?)? in
                    guard !cancelled else { return nil }
                    scheduled = false
                    timer = nil
                    defer {
                        held = nil
                        heldCompletion = nil
                    }
                    if held != nil { lastEmission = now }
                    return (held, heldCompletion)
                }
                guard let (value, completion) = signals else { return }
                if let value { outbox.enqueue(.value(value)) }
                if let completion { outbox.enqueue(.completion(completion)) }
                let more = outbox.drain()
                if more > 0 { lock.guarded { demand += more } }
            }

            func request(_ more: Subscribers.Demand) {
                guard more > 0 else { return }
                lock.guarded { if status.isSubscribed { demand += more } }
            }

            func cancel() {
                let (upstream, running) = lock.guarded { () -> ((any Subscription)?, OneShotTimer?) in
                    cancelled = true
                    held = nil
                    heldCompletion = nil
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
