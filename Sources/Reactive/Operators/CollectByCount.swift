extension Publisher {
    /// Collects values into arrays of `count`, publishing each when full and the rest when
    /// upstream finishes.
    ///
    /// Each array downstream asks for is `count` values asked of upstream. A failure discards a
    /// partly filled array.
    ///
    /// ```swift
    /// (1...5).publisher.collect(2)   // [1, 2], [3, 4], [5]
    /// ```
    /// - Parameter count: The size of each array (at least 1).
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher `collect(_:)` with a count returns.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// The size of each array.
        public let count: Int

        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // A count below 1 would never fill an array; Combine traps, a shell must not (C07).
            let logic = CollectByCountLogic<Upstream.Output, Upstream.Failure>(count: Swift.max(1, count))
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct CollectByCountLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let count: Int
    @usableFromInline var buffer: [Input] = []

    @inlinable init(count: Int) { self.count = count }

    @usableFromInline static var operatorName: String { "CollectByCount" }
    @inlinable var demandFactor: Int? { count }

    @inlinable
    mutating func receive(_ input: Input) -> Step<[Input], UpstreamFailure> {
        buffer.append(input)
        guard buffer.count >= count else { return .skip(.none) }
        defer { buffer = [] }
        return .emit(buffer)
    }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>)
        -> ([Input]?, Subscribers.Completion<UpstreamFailure>)
    {
        if case .finished = completion, !buffer.isEmpty { return (buffer, .finished) }
        return (nil, completion)
    }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
