extension Publisher {
    /// Transforms every value and passes on the non-`nil` results.
    ///
    /// A `nil` result asks upstream for one more value, so demand is never lost (C13).
    ///
    /// ```swift
    /// ["1", "x", "3"].publisher.compactMap { Int($0) }   // 1, 3
    /// ```
    /// - Parameter transform: Called once per value; return `nil` to drop it.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher `compactMap(_:)` returns.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform; `nil` drops the value.
        public let transform: (Upstream.Output) -> Output?

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CompactMapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

/// CompactMap's subscriber: stateless like `MapSubscriber`, and top level for the reason given there.
@usableFromInline
struct CompactMapSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Input) -> Downstream.Input?
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline var description: String { "CompactMap" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        if let output = transform(input) { return downstream.receive(output) }
        return .max(1)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

extension Publishers.CompactMap {
    /// Two compactMaps in a row fuse into one.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap<Upstream, T>(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// A compactMap followed by a map fuse into one `CompactMap` (Combine's specialisation).
    /// - Parameter transform: The map applied to each value the compactMap keeps.
    /// - Returns: One compactMap over the same upstream.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap<Upstream, T>(upstream: upstream) { first($0).map(transform) }
    }
}

/// It calls its downstream only from inside its upstream's calls, so a source's promise to release
/// a cancelled sink only when nothing calls it holds through it (`ReleaseHandOff.swift`).
extension CompactMapSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        downstream.receive(subscription: subscription, handOff: handOff)
    }
}
