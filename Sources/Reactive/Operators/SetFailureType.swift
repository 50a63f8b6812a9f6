extension Publisher where Failure == Never {
    /// Gives a publisher that cannot fail the failure type another stage expects.
    ///
    /// ```swift
    /// Just(1).setFailureType(to: MyError.self)   // AnyPublisher<Int, MyError>-compatible
    /// ```
    /// - Parameter failureType: The new failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// The publisher `setFailureType(to:)` returns.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher that cannot fail.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: SetFailureTypeSubscriber(downstream: subscriber))
        }

        /// Changes the failure type again without adding a stage.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }
    }
}

/// SetFailureType's subscriber (top level for the reason given on `MapSubscriber`).
@usableFromInline
struct SetFailureTypeSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline var description: String { "SetFailureType" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: .finished) }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}
