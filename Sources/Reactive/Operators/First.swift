extension Publisher {
    /// Publishes the first value, then finishes and cancels upstream.
    ///
    /// It asks upstream for everything and holds the value until downstream demand arrives (C03).
    /// An empty upstream finishes without a value.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.first()   // 1
    /// ```
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

extension Publishers {
    /// The publisher `first()` returns.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is published.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = FirstLogic<Upstream.Output, Upstream.Failure>()
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct FirstLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError

    @inlinable init() {}

    @usableFromInline static var operatorName: String { "First" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> { .finish(input) }

    @inlinable mutating func result() -> Input? { nil }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.First: Equatable where Upstream: Equatable {}
