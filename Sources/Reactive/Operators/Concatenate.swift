extension Publisher {
    /// Publishes the given values after this publisher finishes.
    ///
    /// ```swift
    /// [1, 2].publisher.append(3, 4)   // 1 2 3 4
    /// ```
    /// - Parameter elements: Values to publish once this publisher has finished.
    /// - Returns: This publisher's values, then `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the elements of a sequence after this publisher finishes.
    /// - Parameter elements: A sequence to publish once this publisher has finished.
    /// - Returns: This publisher's values, then the sequence's.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Subscribes to `publisher` when this publisher finishes, and republishes its values.
    ///
    /// The second publisher is subscribed only after the first finished, and asked for the demand
    /// still outstanding. A failure of the first ends everything: the second is never subscribed.
    ///
    /// ```swift
    /// Just(1).append(Just(2))   // 1 2
    /// ```
    /// - Parameter publisher: The publisher to continue with.
    /// - Returns: A publisher of both publishers' values, one after the other.
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Publishes the given values before this publisher's.
    ///
    /// ```swift
    /// [3, 4].publisher.prepend(1, 2)   // 1 2 3 4
    /// ```
    /// - Parameter elements: Values to publish first.
    /// - Returns: `elements`, then this publisher's values.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the elements of a sequence before this publisher's.
    /// - Parameter elements: A sequence to publish first.
    /// - Returns: The sequence's elements, then this publisher's values.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the values of `publisher` first, and subscribes to this publisher when it finishes.
    /// - Parameter publisher: The publisher to start with.
    /// - Returns: `publisher`'s values, then this publisher's.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publishers {
    /// The publisher `append` and `prepend` return: all of `prefix`'s values, then `suffix`'s.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher subscribed first.
        public let prefix: Prefix
        /// The publisher subscribed once `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher of `prefix`'s values followed by `suffix`'s.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = ConcatenateStorage(downstream: subscriber, suffix: suffix)
            subscriber.receive(subscription: storage)
            prefix.subscribe(RelayLink(storage: storage, generation: 0))
        }
    }
}

/// Phase 0 is the prefix; its `.finished` starts phase 1, the suffix.
@usableFromInline
final class ConcatenateStorage<Suffix: Publisher, Downstream: Subscriber>: RelayEngine<Downstream>
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    /// Until it is subscribed or the relay ends (guarded by `lock`).
    @usableFromInline @exclusivity(unchecked) var suffix: Suffix?

    @inlinable
    init(downstream: Downstream, suffix: Suffix) {
        self.suffix = suffix
        super.init(downstream: downstream, name: "Concatenate")
    }

    @inlinable
    override func takeKept() -> Any? { suffix.take() }

    @inlinable
    override func phaseCompleted(_ completion: Subscribers.Completion<Failure>, generation phase: Int) {
        if phase == 0, case .finished = completion {
            guard let next = endPhase(phase), let suffix = lock.guarded({ self.suffix.take() }) else { return }
            suffix.subscribe(RelayLink(storage: self, generation: next))
        } else {
            terminate(completion, generation: phase)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
