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
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: ReducerLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) throws -> Bool

            @inlinable init(predicate: @escaping (Upstream.Output) throws -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "TryFirstWhere" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, any Error> {
                do { return try predicate(input) ? .finish(input) : .skip(.none) } catch { return .fail(error) }
            }

            @inlinable mutating func result() -> Upstream.Output? { nil }
        }
    }
}
