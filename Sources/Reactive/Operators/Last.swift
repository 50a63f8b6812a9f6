extension Publisher {
    /// Publishes the last value once upstream finishes.
    ///
    /// It asks upstream for everything and holds the value until downstream demand arrives (C03).
    /// An empty upstream finishes without a value.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.last()   // 3
    /// ```
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

extension Publishers {
    /// The publisher `last()` returns.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose last value is published.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = LastLogic<Upstream.Output, Upstream.Failure>()
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct LastLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline var last: Input?

    @inlinable init() {}

    @usableFromInline static var operatorName: String { "Last" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        last = input
        return .skip(.none)
    }

    @inlinable mutating func result() -> Input? { last }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Last: Equatable where Upstream: Equatable {}
