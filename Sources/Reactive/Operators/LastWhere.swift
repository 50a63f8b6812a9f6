extension Publisher {
    /// Publishes the last value that satisfies a predicate, once upstream finishes.
    ///
    /// ```swift
    /// [1, 2, 3, 4].publisher.last { $0 < 3 }   // 2
    /// ```
    /// - Parameter predicate: Called for every value.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `last(where:)` returns.
    public struct LastWhere<Upstream: Publisher>: Publisher {
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
            let logic = LastWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct LastWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let predicate: (Input) -> Bool
    @usableFromInline var last: Input?

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "LastWhere" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        if predicate(input) { last = input }
        return .skip(.none)
    }

    @inlinable mutating func result() -> Input? { last }
}
