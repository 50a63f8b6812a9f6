extension Publishers.Throttle {
    /// Holds a `ThrottleStateMachine` under a lock and carries out its decisions: schedules
    /// emissions on the scheduler and delivers through a `SerialOutbox`.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        private let lock = Lock()
        @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
        @exclusivity(unchecked) private var machine: ThrottleStateMachine<Input, Failure, Context.SchedulerTimeType>
        @exclusivity(unchecked) private var timer: OneShotTimer?
        private let outbox: SerialOutbox<Downstream>
        private let scheduler: Context

        init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
            outbox = SerialOutbox(downstream)
            scheduler = publisher.scheduler
            machine = ThrottleStateMachine(interval: publisher.interval, latest: publisher.latest)
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
            let emitAt = lock.guarded { status.isSubscribed ? machine.receive(input, now: now) : nil }
            if let emitAt { schedule(at: emitAt, now: now) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let now = scheduler.now
            let emitAt = lock.guarded { () -> Context.SchedulerTimeType? in
                guard status.terminate() != nil else { return nil }
                return machine.receive(completion: completion, now: now)
            }
            if let emitAt { schedule(at: emitAt, now: now) }
        }

        private func schedule(at date: Context.SchedulerTimeType, now: Context.SchedulerTimeType) {
            if date <= now {
                scheduler.schedule(options: nil, schedulerAction { self.emit() })
                return
            }
            let next = OneShotTimer.schedule(on: scheduler, after: date, options: nil, schedulerAction { self.emit() })
            let stale = lock.guarded { () -> Bool in
                if machine.isCancelled { return true }
                timer = next
                return false
            }
            if stale { next.cancel() }
        }

        private func emit() {
            let now = scheduler.now
            let signals = lock.guarded { () -> (Input?, Subscribers.Completion<Failure>?)? in
                timer = nil
                return machine.emit(now: now).map { ($0.value, $0.completion) }
            }
            guard let (value, completion) = signals else { return }
            if let value { outbox.enqueue(.value(value)) }
            if let completion { outbox.enqueue(.completion(completion)) }
            let more = outbox.drain()
            if more > 0 { lock.guarded { machine.add(more) } }
        }

        func request(_ more: Subscribers.Demand) {
            guard more > 0 else { return }
            lock.guarded { machine.request(more) }
        }

        func cancel() {
            let (upstream, running) = lock.guarded { () -> ((any Subscription)?, OneShotTimer?) in
                machine.cancel()
                defer { timer = nil }
                return (status.terminate(), timer)
            }
            outbox.cancel()
            running?.cancel()
            upstream?.cancel()
        }
    }
}
