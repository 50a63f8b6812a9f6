extension Publishers.Debounce {
    /// Holds a `DebounceStateMachine` under a lock and carries out its decisions: one cancellable
    /// timer per value (the previous one is cancelled), deliveries through a `SerialOutbox`.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        private let lock = Lock()
        @exclusivity(unchecked) private var status = SubscriptionStatus.awaitingSubscription
        @exclusivity(unchecked) private var machine = DebounceStateMachine<Input>()
        @exclusivity(unchecked) private var timer: OneShotTimer?
        private let outbox: SerialOutbox<Downstream>
        private let dueTime: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?

        init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
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
                guard status.isSubscribed, let generation = machine.receive(input) else { return nil }
                defer { timer = nil }
                return (generation, timer)
            }
            guard let (generation, previous) = started else { return .none }
            previous?.cancel()
            let next = OneShotTimer.schedule(
                on: scheduler, after: scheduler.now.advanced(by: dueTime), options: options,
                schedulerAction { self.fire(generation) })
            let stale = lock.guarded { () -> Bool in
                guard machine.isCurrent(generation) else { return true }
                timer = next
                return false
            }
            if stale { next.cancel() }
            return .none
        }

        private func fire(_ generation: UInt64) {
            let value = lock.guarded { () -> Input? in
                if machine.isCurrent(generation) { timer = nil }
                return machine.timerFired(generation)
            }
            guard let value else { return }
            outbox.enqueue(.value(value))
            let more = outbox.drain()
            if more > 0 { lock.guarded { machine.add(more) } }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let running = lock.guarded { () -> OneShotTimer?? in
                guard status.terminate() != nil else { return nil }
                machine.end()
                defer { timer = nil }
                return .some(timer)
            }
            guard let running else { return }
            running?.cancel()
            // Delivered on the scheduler, after a value being delivered there.
            if outbox.enqueue(.completion(completion)), outbox.claimScheduledDrain() {
                scheduler.schedule(options: options, schedulerAction { _ = self.outbox.drain() })
            }
        }

        func request(_ more: Subscribers.Demand) {
            guard more > 0 else { return }
            lock.guarded { machine.request(more) }
        }

        func cancel() {
            let (upstream, running) = lock.guarded { () -> ((any Subscription)?, OneShotTimer?) in
                machine.end()
                defer { timer = nil }
                return (status.terminate(), timer)
            }
            outbox.cancel()
            running?.cancel()
            upstream?.cancel()
        }
    }
}
