extension Publisher {
    /// Ends the stream if upstream is silent for longer than `interval`.
    ///
    /// The timer starts at subscription and restarts with every value. When it fires, upstream is
    /// cancelled and the subscriber gets `.finished`, or `.failure(customError())` when
    /// `customError` is given. Values and upstream's own completion are delivered on `scheduler`,
    /// in order; a timeout completion comes after values already queued. Demand passes straight
    /// upstream; the timer runs whether or not the subscriber has demand. Cancelling cancels the
    /// timer (C39).
    ///
    /// ```swift
    /// response.timeout(.seconds(5), scheduler: DispatchQueue.global(), customError: { .timedOut })
    /// ```
    /// - Parameters:
    ///   - interval: The longest silence allowed.
    ///   - scheduler: Where the timer runs and signals are delivered.
    ///   - options: Scheduler options for the timer and deliveries.
    ///   - customError: Makes the failure to end with; `nil` finishes normally.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// The publisher `timeout(_:scheduler:options:customError:)` returns.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher being watched.
        public let upstream: Upstream
        /// The longest silence allowed.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the timer runs and signals are delivered.
        public let scheduler: Context
        /// Options for the timer and deliveries.
        public let options: Context.SchedulerOptions?
        /// Makes the failure to end with; `nil` finishes normally.
        public let customError: (() -> Upstream.Failure)?

        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
            @exclusivity(unchecked) private var generation: UInt64 = 0
            @exclusivity(unchecked) private var timer: OneShotTimer?
            @exclusivity(unchecked) private var customError: (() -> Failure)?
            private let outbox: SerialOutbox<Downstream>
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Timeout) {
                outbox = SerialOutbox(downstream)
                interval = publisher.interval
                scheduler = publisher.scheduler
                options = publisher.options
                customError = publisher.customError
            }

            var description: String { "Timeout" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                // The subscriber gets its subscription before the timer can fire (C01).
                outbox.receive(subscription: self)
                restartTimer()
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                guard lock.guarded({ status.isSubscribed }) else { return .none }
                restartTimer()
                if outbox.enqueue(.value(input)) { scheduleDrain() }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let running = lock.guarded { () -> OneShotTimer?? in
                    guard status.terminate() != nil else { return nil }
                    customError = nil
                    defer { timer = nil }
                    return .some(timer)
                }
                guard let running else { return }
                running?.cancel()
                if outbox.enqueue(.completion(completion)) { scheduleDrain() }
            }

            private func restartTimer() {
                let (current, previous) = lock.guarded { () -> (UInt64, OneShotTimer?) in
                    generation &+= 1
                    defer { timer = nil }
                    return (generation, timer)
                }
                previous?.cancel()
                let next = OneShotTimer.schedule(
                    on: scheduler, after: scheduler.now.advanced(by: interval), options: options,
                    schedulerAction { self.timedOut(current) })
                let stale = lock.guarded { () -> Bool in
                    guard status.isSubscribed, generation == current else { return true }
                    timer = next
                    return false
                }
                if stale { next.cancel() }
            }

            private func timedOut(_ current: UInt64) {
                let ended = lock.guarded { () -> ((any Subscription)?, (() -> Failure)?)? in
                    guard generation == current, let upstream = status.terminate() else { return nil }
                    timer = nil
                    defer { customError = nil }
                    return (upstream, customError)
                }
                guard let (upstream, makeError) = ended else { return }
                upstream?.cancel()
                // User code runs outside the lock.
                let completion: Subscribers.Completion<Failure> = makeError.map { .failure($0()) } ?? .finished
                outbox.enqueue(.completion(completion))
                _ = outbox.drain()
            }

            private func scheduleDrain() {
                guard outbox.claimScheduledDrain() else { return }
                scheduler.schedule(options: options, schedulerAction { self.drain() })
            }

            private func drain() {
                let more = outbox.drain()
                if more > 0, let upstream = lock.guarded({ status.subscription }) { upstream.request(more) }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0, let upstream = lock.guarded({ status.subscription }) else { return }
                upstream.request(demand)
            }

            func cancel() {
                let (upstream, running) = lock.guarded { () -> ((any Subscription)?, OneShotTimer?) in
                    customError = nil
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
