extension Publishers {
    /// When `buffer` asks upstream for values.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks for `size` values at once, before the subscriber gets its subscription, and one
        /// more for each value delivered, so the buffer stays full.
        case keepFull
        /// Asks upstream for `.unlimited` values once, at subscription, and never again: the
        /// subscriber's requests only drain the buffer, and `whenFull` handles what does not fit.
        /// (Combine's documentation says "performs requests on demand"; what Combine does is
        /// request `.unlimited`, and this follows what it does.)
        case byRequest
    }

    /// What `buffer` does with a value that arrives when it is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the value that just arrived.
        case dropNewest
        /// Drops the oldest buffered value to make room.
        case dropOldest
        /// Fails with the error the closure makes (and cancels upstream).
        case customError(() -> Failure)
    }
}

extension Publisher {
    /// Buffers up to `size` values that the subscriber has not asked for yet.
    ///
    /// Upstream is asked for values before the subscriber gets its subscription: `size` of them
    /// with `.keepFull` (and one more per value delivered), `.unlimited` with `.byRequest`. So a
    /// subscriber that asks for one value at a time behind `.byRequest` loses what does not fit in
    /// the buffer, as in Combine: `(1...5).publisher.buffer(size: 2, prefetch: .byRequest,
    /// whenFull: .dropNewest)` gives such a subscriber `1, 2`.
    ///
    /// Pinned behaviour: a value arriving while the subscriber has demand and nothing is
    /// buffered goes straight through. `.finished` waits until every buffered value is delivered
    /// (so it waits for demand); a failure is delivered at once and drops the buffer.
    ///
    /// ```swift
    /// fastSource.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    /// - Parameters:
    ///   - size: The most values held.
    ///   - prefetch: When to ask upstream for values.
    ///   - whenFull: What to do with a value that does not fit.
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// The publisher `buffer(size:prefetch:whenFull:)` returns.
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream
        /// The most values held.
        public let size: Int
        /// When to ask upstream for values.
        public let prefetch: PrefetchStrategy
        /// What to do with a value that does not fit.
        public let whenFull: BufferingStrategy<Failure>

        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = Swift.max(size, 0)
            self.prefetch = prefetch
            self.whenFull = whenFull
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
            @exclusivity(unchecked) private var buffer: [Input] = []
            @exclusivity(unchecked) private var head = 0
            /// The upstream's end (or the overflow error), delivered behind the buffered values.
            @exclusivity(unchecked) private var terminal: Subscribers.Completion<Failure>?
            /// The downstream has asked for something: until then `.finished` waits (C03, Combine).
            @exclusivity(unchecked) private var requested = false
            /// An overflow error waits for the next request, which delivers what is buffered first.
            @exclusivity(unchecked) private var overflowed = false
            /// The downstream has its subscription: nothing is delivered before (C01), though
            /// upstream is asked for values first (Combine).
            @exclusivity(unchecked) private var open = false
            @exclusivity(unchecked) private var whenFull: BufferingStrategy<Failure>?
            private let outbox: SerialOutbox<Downstream>
            private let size: Int
            private let prefetch: PrefetchStrategy

            init(downstream: Downstream, publisher: Buffer) {
                outbox = SerialOutbox(downstream)
                size = publisher.size
                prefetch = publisher.prefetch
                whenFull = publisher.whenFull
            }

            var description: String { "Buffer" }

            private var count: Int { buffer.count - head }

            private enum Outcome { case ignore, stored, overflow(any Subscription) }

            func receive(subscription: any Subscription) {
                guard lock.guarded({ status.subscribe(subscription) }) else {
                    subscription.cancel()
                    return
                }
                // As Combine: upstream is asked first, then the downstream gets its subscription;
                // what a synchronous upstream sends meanwhile is buffered (and may overflow).
                subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
                lock.guarded { open = true }
                outbox.receive(subscription: self)
                // A failure (or an overflow) that came before the subscription went down.
                _ = deliver()
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let outcome = lock.guarded { () -> Outcome in
                    guard let upstream = status.subscription else { return .ignore }
                    if count < size || (demand > 0 && count == 0) {
                        buffer.append(input)
                        return .stored
                    }
                    switch whenFull {
                    case .dropNewest, nil:
                        return .ignore
                    case .dropOldest:
                        if count > 0 {
                            head += 1
                            buffer.append(input)
                        }
                        return .stored
                    case .customError(let makeError):
                        // As Combine: upstream is cancelled now; the error follows the buffered
                        // values, at the next request.
                        _ = status.terminate()
                        whenFull = nil
                        terminal = .failure(makeError())
                        overflowed = true
                        return .overflow(upstream)
                    }
                }
                switch outcome {
                case .ignore:
                    return .none
                case .stored:
                    // keepFull: what was delivered is asked for again through the return value;
                    // byRequest asked for everything at subscription.
                    let moved = deliver()
                    return prefetch == .keepFull && moved > 0 ? .max(moved) : .none
                case .overflow(let upstream):
                    upstream.cancel()
                    return .none
                }
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let ended = lock.guarded { () -> Bool in
                    guard status.terminate() != nil else { return false }
                    whenFull = nil
                    terminal = completion
                    return true
                }
                if ended { _ = deliver() }
            }

            /// Moves buffered values to the outbox as demand allows, then the completion when it is
            /// due (a failure once demand runs out or the buffer is empty; `.finished` once the
            /// buffer is empty and the downstream has asked for something), delivers them, and
            /// returns how many values it delivered.
            private func deliver() -> Int {
                var total = 0
                while true {
                    let moved = lock.guarded { () -> Int in
                        guard open else { return -1 }
                        var moved = 0
                        while demand > 0, count > 0 {
                            demand -= 1
                            moved += 1
                            outbox.enqueue(.value(buffer[head]))
                            head += 1
                        }
                        if head == buffer.count {
                            buffer.removeAll(keepingCapacity: true)
                            head = 0
                        } else if head > 64, head * 2 > buffer.count {
                            buffer.removeFirst(head)
                            head = 0
                        }
                        if let completion = terminal, !overflowed {
                            switch completion {
                            case .failure where demand == .none || count == 0:
                                terminal = nil
                                buffer = []
                                head = 0
                                outbox.enqueue(.completion(completion))
                            case .finished where count == 0 && requested:
                                terminal = nil
                                outbox.enqueue(.completion(completion))
                            default:
                                break
                            }
                        }
                        return moved
                    }
                    guard moved >= 0 else { return 0 }
                    total += moved
                    let more = outbox.drain()
                    guard more > 0 else { return total }
                    lock.guarded { demand += more }
                }
            }

            func request(_ more: Subscribers.Demand) {
                guard more > 0 else { return }
                let live = lock.guarded { () -> Bool in
                    guard status.isSubscribed || terminal != nil else { return false }
                    demand += more
                    requested = true
                    overflowed = false
                    return true
                }
                guard live else { return }
                let moved = deliver()
                if prefetch == .keepFull, moved > 0 {
                    lock.guarded({ status.subscription })?.request(.max(moved))
                }
            }

            func cancel() {
                let (upstream, dropped) = lock.guarded { () -> ((any Subscription)?, [Input]) in
                    terminal = nil
                    whenFull = nil
                    defer {
                        buffer = []
                        head = 0
                    }
                    return (status.terminate(), buffer)
                }
                _ = dropped
                outbox.cancel()
                upstream?.cancel()
            }
        }
    }
}
