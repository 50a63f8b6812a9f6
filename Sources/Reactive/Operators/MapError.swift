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
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Failure) -> Failure
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "MapError" }

            @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
            @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
            @inlinable func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion.mapError(transform))
            }
        }
    }
}
