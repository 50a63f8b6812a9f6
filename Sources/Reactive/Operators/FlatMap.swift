extension Publisher {
    /// Transforms every value into a publisher and merges the values of all those publishers.
    ///
    /// At most `maxPublishers` inner publishers are subscribed at a time: the upstream is first
    /// asked for `maxPublishers` values, and for one more each time an inner publisher finishes.
    /// The result finishes when the upstream and every inner publisher have finished; the first
    /// failure cancels everything else. Values are delivered one at a time, never beyond demand.
    ///
    /// ```swift
    /// [1, 2, 3].publisher
    ///     .flatMap(maxPublishers: .max(1)) { n in [n, n * 10].publisher }
    ///     .sink { print($0) }          // 1 10 2 20 3 30
    /// ```
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once (default `.unlimited`).
    ///   - transform: Makes the publisher for one upstream value.
    /// - Returns: A publisher of every inner publisher's values.
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// The publisher `flatMap(maxPublishers:_:)` returns.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed into publishers.
        public let upstream: Upstream
        /// The most inner publishers subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes the publisher for one upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        @inlinable
        public init(upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeEngine(
                downstream: subscriber, hasOuter: true, maxPublishers: maxPublishers, exclusive: false, name: "FlatMap")
            // The downstream gets its subscription before the upstream is subscribed (Combine).
            handSubscription(storage, handOff: storage, to: subscriber)
            upstream.subscribe(MergeOuter(storage: storage, transform: transform))
        }
    }
}

/// Subscribes to the upstream of `flatMap` or `switchToLatest` and turns each value into an inner
/// subscription of `storage`.
@usableFromInline
struct MergeOuter<Input, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let storage: MergeEngine<Downstream>
    @usableFromInline let transform: (Input) -> NewPublisher
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(storage: MergeEngine<Downstream>, transform: @escaping (Input) -> NewPublisher) {
        self.storage = storage
        self.transform = transform
    }

    @usableFromInline var description: String { storage.name }

    @inlinable func receive(subscription: any Subscription) { storage.outerSubscribed(subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let publisher = transform(input)
        // Resolved at compile time once specialised: free for every other publisher type.
        if let just = publisher as? Just<NewPublisher.Output> {
            storage.scalar(just.output)
            // A `Just` finishes at once; asking through the return value cannot recurse.
            return storage.refillsOuter ? .max(1) : .none
        }
        guard let inner = storage.makeInner() else { return .none }
        publisher.subscribe(inner)
        return .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.outerCompleted(completion) }
}

extension Publisher where Failure == Never {
    /// `flatMap` for an upstream that cannot fail and inner publishers that can: the upstream's
    /// failure type becomes the inner one.
    ///
    /// ```swift
    /// [1, 2].publisher.flatMap { id in fetch(id) }   // fetch returns AnyPublisher<Item, FetchError>
    /// ```
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once.
    ///   - transform: Makes the publisher for one upstream value.
    /// - Returns: A publisher of every inner publisher's values.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers, transform: transform)
    }

    /// `flatMap` when neither the upstream nor the inner publishers can fail.
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once.
    ///   - transform: Makes the publisher for one upstream value.
    /// - Returns: A publisher of every inner publisher's values.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// `flatMap` with inner publishers that cannot fail: their failure type becomes the upstream's.
    /// - Parameters:
    ///   - maxPublishers: The most inner publishers subscribed at once.
    ///   - transform: Makes the publisher for one upstream value.
    /// - Returns: A publisher of every inner publisher's values.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { Publishers.SetFailureType(upstream: transform($0)) }
    }
}
