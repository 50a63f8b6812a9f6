extension Publisher {
    /// Ignores every value and passes on only the completion.
    ///
    /// It asks upstream for `.unlimited` at once, since no value it drops uses downstream demand.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.ignoreOutput()   // finished
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// The publisher `ignoreOutput()` returns.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are ignored.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputSubscriber<S, Upstream.Output>(downstream: subscriber))
        }
    }
}

/// IgnoreOutput's subscriber (top level for the reason given on `MapSubscriber`).
@usableFromInline
struct IgnoreOutputSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible
where Downstream.Input == Never {
    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline var description: String { "IgnoreOutput" }

    @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { .none }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
