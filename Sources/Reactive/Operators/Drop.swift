import Synchronization

extension Publisher {
    /// Skips the first `count` values and passes on the rest.
    ///
    /// As Combine does, the first request asks upstream for `count` more than the downstream
    /// asked for, so the skipped values need no demand of their own (C09).
    ///
    /// ```swift
    /// (1...5).publisher.dropFirst(2)   // 3, 4, 5
    /// ```
    /// - Parameter count: How many values to skip (default 1).
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher `dropFirst(_:)` returns.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// How many values are skipped.
        public let count: Int

        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DropSubscriber(downstream: subscriber, remaining: count))
        }
    }
}

/// Drop's subscriber (top level for the reason given on `MapSubscriber`). The counter needs no
/// lock because upstream never calls `receive(_:)` concurrently (C25).
@usableFromInline
final class DropSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let count: Int
    @usableFromInline @exclusivity(unchecked) var remaining: Int

    @inlinable
    init(downstream: Downstream, remaining: Int) {
        self.downstream = downstream
        self.count = Swift.max(remaining, 0)
        self.remaining = remaining
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: count > 0 ? DropSubscription(upstream: subscription, count: count) : subscription)
    }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        if remaining > 0 {
            remaining -= 1
            return .none  // asked for with the first request
        }
        return downstream.receive(input)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

/// The subscription `dropFirst` hands downstream: it adds the skipped count to the first request.
/// It keeps only the upstream subscription (not the subscriber), so it makes no cycle with the
/// downstream that holds it. Requests may come from any thread, so the first is told by an atomic.
@usableFromInline
final class DropSubscription: Subscription, CustomStringConvertible {
    @usableFromInline let upstream: any Subscription
    @usableFromInline let count: Int
    @usableFromInline let requested = Atomic<Bool>(false)

    @inlinable
    init(upstream: any Subscription, count: Int) {
        self.upstream = upstream
        self.count = count
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        if !requested.exchange(true, ordering: .relaxed) {
            upstream.request(demand + .max(count))
        } else {
            upstream.request(demand)
        }
    }

    @inlinable func cancel() { upstream.cancel() }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Drop: Equatable where Upstream: Equatable {}
