extension Publisher {
    /// Publishes how many values upstream sent, once it finishes.
    ///
    /// It asks upstream for everything and holds the count until downstream demand arrives (C03).
    ///
    /// ```swift
    /// ["a", "b"].publisher.count()   // 2
    /// ```
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

extension Publishers {
    /// The publisher `count()` returns.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = CountLogic<Upstream.Output, Upstream.Failure>()
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct CountLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline var count = 0

    @inlinable init() {}

    @usableFromInline static var operatorName: String { "Count" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Int, UpstreamFailure> {
        count &+= 1
        return .skip(.none)
    }

    @inlinable mutating func result() -> Int? { count }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Count: Equatable where Upstream: Equatable {}
