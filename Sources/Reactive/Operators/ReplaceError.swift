extension Publisher {
    /// Replaces a failure with `output` followed by `.finished`.
    ///
    /// The replacement is sent only once downstream demand is above zero (C13, C38).
    ///
    /// ```swift
    /// Fail<Int, MyError>(error: MyError()).replaceError(with: -1)   // -1
    /// ```
    /// - Parameter output: The value published in place of the failure.
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher `replaceError(with:)` returns.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher whose failure is replaced.
        public let upstream: Upstream
        /// The value published in place of a failure.
        public let output: Upstream.Output

        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = ReplaceErrorLogic<Upstream.Output, Upstream.Failure>(replacement: output)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct ReplaceErrorLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let replacement: Input

    @inlinable init(replacement: Input) { self.replacement = replacement }

    @usableFromInline static var operatorName: String { "ReplaceError" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, Never> { .emit(input) }

    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<UpstreamFailure>) -> (Input?, Subscribers.Completion<Never>) {
        if case .failure = completion { return (replacement, .finished) }
        return (nil, .finished)
    }
}

/// Equal when their upstreams and replacement values are equal, as in Combine.
extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
