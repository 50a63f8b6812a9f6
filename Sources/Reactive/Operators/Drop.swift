extension Publisher {
    /// Skips the first `count` values and passes on the rest.
    ///
    /// Each skipped value asks upstream for one more, so demand is never lost (C13).
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

/// Drop's subscriber (top level for the reason given on `MapSubscriber`). It passes the upstream
/// subscription straight through; the counter needs no lock because upstream never calls
/// `receive(_:)` concurrently (C25).
@usableFromInline
final class DropSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var remaining: Int

    @inlinable
    init(downstream: Downstream, remaining: Int) {
        self.downstream = downstream
        self.remaining = remaining
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        if remaining > 0 {
            remaining -= 1
            return .max(1)
        }
        return downstream.receive(input)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}
