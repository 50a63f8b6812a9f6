extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the values of the most recent publisher this publisher emitted.
    ///
    /// Each new inner publisher cancels the previous one (whose undelivered values are dropped)
    /// and receives the outstanding demand. Finishes when the upstream and the current inner
    /// publisher have finished; the first failure cancels everything.
    ///
    /// ```swift
    /// let searches = PassthroughSubject<String, Never>()
    /// let results = searches.map { query in search(query) }.switchToLatest()
    /// ```
    /// - Returns: A publisher of the latest inner publisher's values.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publishers {
    /// The publisher `switchToLatest()` returns.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates a publisher of the latest inner publisher's values.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: true, maxPublishers: .unlimited, exclusive: true, name: "SwitchToLatest")
            // The downstream gets its subscription before the upstream is subscribed (Combine).
            handSubscription(storage, handOff: storage, to: subscriber)
            upstream.subscribe(MergeOuter<P, P, S>(storage: storage, transform: { $0 }))
        }
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// `switchToLatest` for an upstream that cannot fail and inner publishers that can.
    /// - Returns: A publisher of the latest inner publisher's values.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` when neither the upstream nor the inner publishers can fail.
    /// - Returns: A publisher of the latest inner publisher's values.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` with inner publishers that cannot fail: their failure type becomes the upstream's.
    /// - Returns: A publisher of the latest inner publisher's values.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: map { Publishers.SetFailureType(upstream: $0) })
    }
}
