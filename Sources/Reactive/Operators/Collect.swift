extension Publisher {
    /// Collects every value into one array, published when upstream finishes.
    ///
    /// It asks upstream for everything at once and holds the array until downstream demand
    /// arrives (C03). A failure discards what was collected.
    ///
    /// ```swift
    /// (1...3).publisher.collect()   // [1, 2, 3]
    /// ```
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// The publisher `collect()` returns.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = CollectLogic<Upstream.Output, Upstream.Failure>()
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct CollectLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline var buffer: [Input] = []

    @inlinable init() {}

    @usableFromInline static var operatorName: String { "Collect" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<[Input], UpstreamFailure> {
        buffer.append(input)
        return .skip(.none)
    }

    @inlinable mutating func result() -> [Input]? { buffer }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Collect: Equatable where Upstream: Equatable {}
