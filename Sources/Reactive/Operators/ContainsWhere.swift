extension Publisher {
    /// Publishes `true` and finishes as soon as a value satisfies `predicate` (cancelling
    /// upstream), or `false` when upstream finishes without one.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.contains { $0 > 2 }   // true
    /// ```
    /// - Parameter predicate: Called for each value until it returns `true`.
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `contains(where:)` returns.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition looked for.
        public let predicate: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        /// Also the logic of `contains(_:)`.
        @usableFromInline
        struct Logic: ReducerLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) -> Bool

            @inlinable init(predicate: @escaping (Upstream.Output) -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "Contains" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Bool, Upstream.Failure> {
                predicate(input) ? .finish(true) : .skip(.none)
            }

            @inlinable mutating func result() -> Bool? { false }
        }
    }
}
