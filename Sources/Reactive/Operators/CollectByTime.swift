extension Publishers {
    /// How `collect(_:options:)` groups values over time.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A group every `stride` (empty windows publish nothing).
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// A group every `stride`, or as soon as `count` values are collected.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }
}

extension Publisher {
    /// Collects values into arrays by time window, or by time or count.
    ///
    /// Pinned behaviour:
    /// - Windows follow a repeating timer started at subscription: subscription + n × stride.
    ///   A group closed by reaching `count` does not move the timer.
    /// - An empty window publishes nothing. Upstream is asked for `.unlimited`; groups wait for
    ///   the subscriber's demand, in order (none is dropped).
    /// - On `.finished` the partial window is published as a last group, then `.finished`, after
    ///   every waiting group. A failure is delivered at once and discards the values collected.
    /// - Cancelling stops the timer.
    ///
    /// ```swift
    /// // windows of 3 ticks:   "-a-b-c-d-|"  gives  "---[a]--[bc]--([d]|)"
    /// source.collect(.byTime(scheduler, .seconds(1)))
    /// ```
    /// - Parameters:
    ///   - strategy: The window length, and optionally the largest group.
    ///   - options: Scheduler options for the timer.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// The publisher `collect(_:options:)` with a time grouping strategy returns.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are grouped.
        public let upstream: Upstream
        /// How values are grouped.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options for the timer.
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
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
            @exclusivity(unchecked) private var demand = Subscribers.Demand.none
            @exclusivity(unchecked) private var window: [Input] = []
            @exclusivity(unchecked) private var ready: [[Input]] = []
            @exclusivity(unchecked) private var finished = false
            @exclusivity(unchecked) private var timer: AnyCancellable?
            private let outbox: SerialOutbox<Downstream>
            private let scheduler: Context
            private let stride: Context.SchedulerTimeType.Stride
            private let count: Int
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: CollectByTime) {
                outbox = SerialOutbox(downstream)
                options = publisher.options
                switch publisher.strategy {
                case .byTime(let scheduler, let stride):
                    self.scheduler = scheduler
                    self.stride = stride
                    count = .max
                case .byTimeOrCount(let scheduler, let stride, let count):
                    self.scheduler = scheduler
                    self.stride = stride
                    self.count = Swift.max(count, 1)
                }
            }

            var description: String { "CollectByTime" }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                outbox.receive(subscription: self)
                let repeating = scheduler.schedule(
                    after: scheduler.now.advanced(by: stride), interval: stride, tolerance: scheduler.minimumTolerance,
                    options: options, schedulerAction { self.tick() })
                let handle = AnyCancellable(repeating)
                let stale = lock.guarded { () -> Bool in
                    guard status.isSubscribed else { return true }
                    timer = handle
                    return false
                }
                if stale { handle.cancel() }
                subscription.request(.unlimited)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let full = lock.guarded { () -> Bool in
                    guard status.isSubscribed else { return false }
                    window.append(input)
                    guard window.count >= count else { return false }
                    ready.append(window)
                    window = []
                    return true
                }
                if full { deliver() }
                return .none
            }

            private func tick() {
                let closed = lock.guarded { () -> Bool in
                    guard status.isSubscribed, !window.isEmpty else { return false }
                    ready.append(window)
                    window = []
                    return true
                }
                if closed { deliver() }
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let stop = lock.guarded { () -> AnyCancellable?? in
                    guard status.terminate() != nil else { return nil }
                    switch completion {
                    case .finished:
                        if !window.isEmpty { ready.append(window) }
                        finished = true
                    case .failure:
                        ready = []
                    }
                    window = []
                    defer { timer = nil }
                    return .some(timer)
                }
                guard let stop else { return }
                stop?.cancel()
                if case .failure = completion {
                    outbox.enqueue(.completion(completion))
                    _ = outbox.drain()
                } else {
                    deliver()
                }
            }

            /// Moves ready groups to the outbox as demand allows (then the completion, once every
            /// group is out), and delivers them.
            private func deliver() {
                while true {
                    lock.guarded {
                        while demand > 0, !ready.isEmpty {
                            demand -= 1
                            outbox.enqueue(.value(ready.removeFirst()))
                        }
                        if finished, ready.isEmpty {
                            finished = false
                            outbox.enqueue(.completion(.finished))
                        }
                    }
                    let more = outbox.drain()
                    guard more > 0 else { return }
                    lock.guarded { demand += more }
                }
            }

            func request(_ more: Subscribers.Demand) {
                guard more > 0 else { return }
                let live = lock.guarded { () -> Bool in
                    guard status.isSubscribed || finished else { return false }
                    demand += more
                    return true
                }
                if live { deliver() }
            }

            func cancel() {
                let (upstream, stop) = lock.guarded { () -> ((any Subscription)?, AnyCancellable?) in
                    window = []
                    ready = []
                    finished = false
                    defer { timer = nil }
                    return (status.terminate(), timer)
                }
                outbox.cancel()
                stop?.cancel()
                upstream?.cancel()
            }
        }
    }
}
