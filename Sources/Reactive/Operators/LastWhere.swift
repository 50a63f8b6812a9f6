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
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: ReducerLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) -> Bool
            @usableFromInline var last: Upstream.Output?

            @inlinable init(predicate: @escaping (Upstream.Output) -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "LastWhere" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, Upstream.Failure> {
                if predicate(input) { last = input }
                return .skip(.none)
            }

            @inlinable mutating func result() -> Upstream.Output? { last }
        }
    }
}
