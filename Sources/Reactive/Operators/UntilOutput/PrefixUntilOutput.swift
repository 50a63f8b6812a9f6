extension Publisher {
    /// Republishes values until another publisher emits a value, then finishes.
    ///
    /// The other publisher is asked for one value; when it arrives, both subscriptions are
    /// cancelled and the output finishes. If the other publisher completes without a value, values
    /// keep flowing.
    ///
    /// ```swift
    /// ticks.prefix(untilOutputFrom: stopButton)   // ticks until the first tap
    /// ```
    /// - Parameter publisher: The publisher whose first value ends the output.
    /// - Returns: A publisher of this publisher's values until `publisher` emits.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher `prefix(untilOutputFrom:)` returns.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are republished.
        public let upstream: Upstream
        /// The publisher whose first value ends the output.
        public let other: Other

        /// Creates a publisher of `upstream`'s values until `other` emits.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = UntilOutputStorage(downstream: subscriber, mode: .prefix)
            subscriber.receive(subscription: storage)
            // The trigger first: one that fires at once ends the output before any value.
            if storage.isLive { other.subscribe(UntilOutputStorage<S>.TriggerLink<Other.Output, Other.Failure>(storage: storage)) }
            if storage.isLive { upstream.subscribe(UntilOutputStorage<S>.UpstreamLink(storage: storage)) }
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
