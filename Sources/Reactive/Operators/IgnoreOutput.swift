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
            upstream.subscribe(Inner(downstream: subscriber))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Never, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @inlinable init(downstream: Downstream) { self.downstream = downstream }

            @usableFromInline var description: String { "IgnoreOutput" }

            @inlinable func receive(subscription: any Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }
            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }
            @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
        }
    }
}
