extension Publisher {
    /// Passes on only the values for which `isIncluded` returns `true`.
    ///
    /// A dropped value asks upstream for one more, so demand is never lost (C13).
    ///
    /// ```swift
    /// (1...6).publisher.filter { $0.isMultiple(of: 2) }   // 2, 4, 6
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// The publisher `filter(_:)` returns.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate a value must satisfy to pass.
        public let isIncluded: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

/// Filter's subscriber; top level for the reason given on `MapSubscriber`.
@usableFromInline
struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let isIncluded: (Downstream.Input) -> Bool
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @usableFromInline var description: String { "Filter" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}
