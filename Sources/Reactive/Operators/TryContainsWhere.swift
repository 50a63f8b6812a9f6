extension Publisher {
    /// Publishes `true` and finishes as soon as a value satisfies a throwing `predicate`
    /// (cancelling upstream), or `false` when upstream finishes without one. A thrown error
    /// becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.tryContains { $0 > 2 }   // true
    /// ```
    /// - Parameter predicate: Called for each value until it returns `true` or throws.
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryContains(where:)` returns.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition looked for.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryContainsWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryContainsWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryContainsWhere" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Bool, any Error> {
        do { return try predicate(input) ? .finish(true) : .skip(.none) } catch { return .fail(error) }
    }

    @inlinable mutating func result() -> Bool? { false }
}
