extension Publisher {
    /// Transforms the failure with a closure; values pass through unchanged.
    ///
    /// ```swift
    /// Fail<Int, URLError>(error: URLError(.badURL)).mapError { AppError.network($0) }
    /// ```
    /// - Parameter transform: Called once, with the upstream error.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher `mapError(_:)` returns.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output

        /// The publisher whose failure is transformed.
        public let upstream: Upstream
        /// The transform applied to the failure.
        public let transform: (Upstream.Failure) -> Failure

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Creates a publisher that converts the failure with `map`.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapErrorSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

/// MapError's subscriber (top level for the reason given on `MapSubscriber`).
@usableFromInline
struct MapErrorSubscriber<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (UpstreamFailure) -> Downstream.Failure
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, transform: @escaping (UpstreamFailure) -> Downstream.Failure) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline var description: String { "MapError" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: completion.mapError(transform))
    }
}
