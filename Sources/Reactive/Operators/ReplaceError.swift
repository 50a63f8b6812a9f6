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
            upstream.subscribe(StepSubscription(logic: Logic(replacement: output), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: StepLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let replacement: Upstream.Output

            @inlinable init(replacement: Upstream.Output) { self.replacement = replacement }

            @usableFromInline static var operatorName: String { "ReplaceError" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, Never> { .emit(input) }

            @inlinable
            mutating func complete(_ completion: Subscribers.Completion<Upstream.Failure>) -> (Upstream.Output?, Subscribers.Completion<Never>) {
                if case .failure = completion { return (replacement, .finished) }
                return (nil, .finished)
            }
        }
    }
}
