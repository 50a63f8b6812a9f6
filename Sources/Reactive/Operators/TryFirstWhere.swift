extension Publisher {
    /// Publishes the first value that satisfies a throwing predicate, then finishes and cancels
    /// upstream. A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.tryFirst { n in
    ///     if n == 2 { throw Stop() }
    ///     return n > 2
    /// }   // failure(Stop)
    /// ```
    /// - Parameter predicate: Called for each value until it returns `true` or throws.
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryFirst(where:)` returns.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the published value satisfies.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryFirstWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryFirstWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryFirstWhere" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do { return try predicate(input) ? .finish(input) : .skip(.none) } catch { return .fail(error) }
    }

    @inlinable mutating func result() -> Input? { nil }
}
