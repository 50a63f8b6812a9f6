extension Publisher {
    /// Publishes `output` if upstream finishes without sending any value.
    ///
    /// The replacement waits for downstream demand (C03); a failure passes through unchanged.
    ///
    /// ```swift
    /// Empty<Int, Never>().replaceEmpty(with: 0)   // 0
    /// ```
    /// - Parameter output: The value published for an empty upstream.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher `replaceEmpty(with:)` returns.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose emptiness is replaced.
        public let upstream: Upstream
        /// The value published for an empty upstream.
        public let output: Upstream.Output

        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = ReplaceEmptyLogic<Upstream.Output, Upstream.Failure>(replacement: output)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct ReplaceEmptyLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    /// Dropped at the first value: it will never be needed.
    @usableFromInline var replacement: Input?

    @inlinable init(replacement: Input) { self.replacement = replacement }

    @usableFromInline static var operatorName: String { "ReplaceEmpty" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        replacement = nil
        return .emit(input)
    }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>)
        -> (Input?, Subscribers.Completion<UpstreamFailure>)
    {
        if case .finished = completion { return (replacement, .finished) }
        return (nil, completion)
    }
}

/// Equal when their upstreams and replacement values are equal, as in Combine.
extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
