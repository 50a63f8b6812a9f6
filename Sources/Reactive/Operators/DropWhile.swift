extension Publisher {
    /// Skips values while a predicate holds, then passes on every value from the first one that
    /// fails it.
    ///
    /// Each skipped value asks upstream for one more (C13).
    ///
    /// ```swift
    /// [1, 2, 5, 1].publisher.drop { $0 < 3 }   // 5, 1
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false`.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `drop(while:)` returns.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// The condition skipped values satisfy.
        public let predicate: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DropWhileSubscriber(downstream: subscriber, predicate: predicate))
        }
    }
}

/// DropWhile's subscriber (top level for the reason given on `MapSubscriber`). It passes the
/// upstream subscription straight through; the predicate slot needs no lock because upstream
/// never calls `receive(_:)` concurrently (C25).
@usableFromInline
final class DropWhileSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var predicate: ((Downstream.Input) -> Bool)?

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input) -> Bool) {
        self.downstream = downstream
        self.predicate = predicate
    }

    @usableFromInline var description: String { "DropWhile" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        if let predicate {
            if predicate(input) { return .max(1) }
            self.predicate = nil  // never called again: release what it captured
        }
        return downstream.receive(input)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}
