extension Publisher {
    /// Ignores values until another publisher emits a value, then republishes the rest.
    ///
    /// The other publisher is asked for one value and cancelled once it arrives; its failure fails
    /// the output, and its finishing without a value finishes it. Dropped values ask the upstream
    /// for a replacement, so demand is kept. As in Combine, upstream is subscribed even when the
    /// other publisher has already ended the output; its subscription is then cancelled.
    ///
    /// ```swift
    /// readings.drop(untilOutputFrom: calibrated)   // readings after calibration
    /// ```
    /// - Parameter publisher: The publisher whose first value opens the gate.
    /// - Returns: A publisher of this publisher's values after `publisher` emits.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher `drop(untilOutputFrom:)` returns.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are gated.
        public let upstream: Upstream
        /// The publisher whose first value opens the gate.
        public let other: Other

        /// Creates a publisher of `upstream`'s values after `other` emits.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = UntilOutputStorage(downstream: subscriber, mode: .drop)
            subscriber.receive(subscription: storage)
            if storage.isLive { other.subscribe(UntilOutputStorage<S>.TriggerLink<Other.Output, Other.Failure>(storage: storage)) }
            // Always, as in Combine: a trigger that finished without a value ended the output, but
            // upstream is still subscribed (its side effects run) and its subscription cancelled.
            upstream.subscribe(UntilOutputStorage<S>.UpstreamLink(storage: storage))
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
