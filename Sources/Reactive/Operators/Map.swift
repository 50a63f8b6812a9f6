extension Publisher {
    /// Transforms every value with a closure.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.map { $0 * 10 }   // 10, 20, 30
    /// ```
    /// - Parameter transform: Called once per value, in order.
    /// - Returns: A publisher of the transformed values, failing as this one does.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher `map(_:)` returns.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform applied to each value.
        public let transform: (Upstream.Output) -> Output

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

/// Map keeps no state: it hands the upstream subscription straight to the downstream.
///
/// Declared at top level so that its type does not carry the upstream publisher's type, and
/// subscribed with `upstream.receive(subscriber:)` rather than the generic `subscribe(_:)`: with the
/// same generic function at every level and a growing subscriber type, the optimiser stops
/// specialising after two levels (it suspects unbounded recursion), which cost 30x in the chain
/// benchmark.
@usableFromInline
struct MapSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Input) -> Downstream.Input
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline var description: String { "Map" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(transform(input)) }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

extension Publishers.Map {
    /// Two maps in a row fuse into one.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map<Upstream, T>(upstream: upstream) { transform(first($0)) }
    }

    /// A map followed by a throwing map fuse into one `TryMap` (Combine's specialisation).
    ///
    /// ```swift
    /// let parsed: Publishers.TryMap<Publishers.Sequence<[String], Never>, Int> =
    ///     ["1", "x"].publisher.map { $0 + "0" }.tryMap { try parse($0) }
    /// ```
    /// - Parameter transform: The second transform, which may throw.
    /// - Returns: One throwing map over the same upstream.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { try transform(first($0)) }
    }
}

/// It calls its downstream only from inside its upstream's calls, so a source's promise to release
/// a cancelled sink only when nothing calls it holds through it (`ReleaseHandOff.swift`).
extension MapSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        downstream.receive(subscription: subscription, handOff: handOff)
    }
}
