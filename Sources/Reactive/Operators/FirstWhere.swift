extension Publisher {
    /// Publishes the first value that satisfies a predicate, then finishes and cancels upstream.
    ///
    /// ```swift
    /// [1, 2, 3, 4].publisher.first { $0 > 2 }   // 3
    /// ```
    /// - Parameter predicate: Called for each value until it returns `true`.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `first(where:)` returns.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the published value satisfies.
        public let predicate: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = FirstWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct FirstWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let predicate: (Input) -> Bool

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "FirstWhere" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        predicate(input) ? .finish(input) : .skip(.none)
    }

    @inlinable mutating func result() -> Input? { nil }
}
