extension Publisher {
    /// Republishes values until another publisher emits a value, then finishes.
    ///
    /// The other publisher is asked for one value; when it arrives, both subscriptions are
    /// cancelled and the output finishes. If the other publisher completes without a value, values
    /// keep flowing. As in Combine, the subscriber gets its subscription when upstream's arrives;
    /// if the other publisher emits before that (`Just` does, at once), the subscriber receives
    /// only `.finished`, without a subscription, and upstream's subscription is cancelled.
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
            // As in Combine: the trigger first, then upstream; the subscriber gets its subscription
            // when upstream's arrives. A trigger that fires before that finishes the subscriber
            // without a subscription, and upstream's subscription is cancelled when it comes.
            other.subscribe(UntilOutputStorage<S>.TriggerLink<Other.Output, Other.Failure>(storage: storage))
            upstream.subscribe(UntilOutputStorage<S>.UpstreamLink(storage: storage))
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
