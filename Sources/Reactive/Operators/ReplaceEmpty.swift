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
            upstream.subscribe(StepSubscription(logic: Logic(replacement: output), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: StepLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            /// Dropped at the first value: it will never be needed.
            @usableFromInline var replacement: Upstream.Output?

            @inlinable init(replacement: Upstream.Output) { self.replacement = replacement }

            @usableFromInline static var operatorName: String { "ReplaceEmpty" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, Upstream.Failure> {
                replacement = nil
                return .emit(input)
            }

            @inlinable
            mutating func complete(_ completion: Subscribers.Completion<Upstream.Failure>)
                -> (Upstream.Output?, Subscribers.Completion<Upstream.Failure>)
            {
                if case .finished = completion { return (replacement, .finished) }
                return (nil, completion)
            }
        }
    }
}
