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
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: ReducerLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) -> Bool

            @inlinable init(predicate: @escaping (Upstream.Output) -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "FirstWhere" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, Upstream.Failure> {
                predicate(input) ? .finish(input) : .skip(.none)
            }

            @inlinable mutating func result() -> Upstream.Output? { nil }
        }
    }
}
