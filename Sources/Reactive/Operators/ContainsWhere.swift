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
            let logic = ContainsWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

/// Also the logic of `contains(_:)`.
@usableFromInline
struct ContainsWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let predicate: (Input) -> Bool

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "Contains" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Bool, UpstreamFailure> {
        predicate(input) ? .finish(true) : .skip(.none)
    }

    @inlinable mutating func result() -> Bool? { false }
}
