extension Publishers {
    /// When `buffer` asks upstream for values.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks for `size` values at once, and one more for each value delivered, so the buffer
        /// stays full.
        case keepFull
        /// Asks for `.unlimited` values: the buffer's strategy handles the overflow.
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
                outbox.receive(subscription: self)
                // keepFull fills the buffer now; byRequest forwards the downstream's requests as
                // they come (Combine's documented behaviour), so it asks for nothing yet.
                if prefetch == .keepFull { subscription.request(.max(size)) }
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
                    // byRequest: what the downstream asked for while receiving is passed on.
                    let (moved, asked) = deliver()
                    switch prefetch {
                    case .keepFull: return moved > 0 ? .max(moved) : .none
                    case .byRequest: return asked
                    }
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
            /// returns how many values it delivered and what the downstream asked for meanwhile.
            private func deliver() -> (moved: Int, asked: Subscribers.Demand) {
                var total = 0
                var asked = Subscribers.Demand.none
                while true {
                    let moved = lock.guarded { () -> Int in
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
                    total += moved
                    let more = outbox.drain()
                    guard more > 0 else { return (total, asked) }
                    asked += more
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
                let (moved, asked) = deliver()
                switch prefetch {
                case .keepFull where moved > 0:
                    lock.guarded({ status.subscription })?.request(.max(moved))
                case .byRequest:
                    lock.guarded({ status.subscription })?.request(more + asked)
                default:
                    break
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
