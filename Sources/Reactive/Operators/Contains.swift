extension Publisher where Output: Equatable {
    /// Publishes `true` and finishes as soon as upstream sends `output` (cancelling upstream), or
    /// `false` when upstream finishes without it.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.contains(2)   // true
    /// ```
    /// - Parameter output: The value to look for.
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher `contains(_:)` returns.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The value looked for.
        public let output: Upstream.Output

        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let output = self.output
            let logic = ContainsWhereLogic<Upstream.Output, Upstream.Failure> { $0 == output }
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Contains: Equatable where Upstream: Equatable {}
