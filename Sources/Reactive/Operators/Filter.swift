extension Publisher {
    /// Passes on only the values for which `isIncluded` returns `true`.
    ///
    /// A dropped value asks upstream for one more, so demand is never lost (C13).
    ///
    /// ```swift
    /// (1...6).publisher.filter { $0.isMultiple(of: 2) }   // 2, 4, 6
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// The publisher `filter(_:)` returns.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate a value must satisfy to pass.
        public let isIncluded: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

/// Filter's subscriber; top level for the reason given on `MapSubscriber`.
@usableFromInline
struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let isIncluded: (Downstream.Input) -> Bool
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @usableFromInline var description: String { "Filter" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

extension Publishers.Filter {
    /// Two filters in a row fuse into one `Filter` that keeps a value only if both keep it (in
    /// order: the second is not called for a value the first drops), as Combine's specialisation.
    ///
    /// ```swift
    /// let evensOverTen: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
    ///     (1...20).publisher.filter { $0.isMultiple(of: 2) }.filter { $0 > 10 }
    /// ```
    /// - Parameter isIncluded: The second test.
    /// - Returns: One filter over the same upstream.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// A filter followed by a throwing filter fuse into one `TryFilter` (Combine's specialisation).
    /// - Parameter isIncluded: The second test, which may throw.
    /// - Returns: One throwing filter over the same upstream.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

/// It calls its downstream only from inside its upstream's calls, so a source's promise to release
/// a cancelled sink only when nothing calls it holds through it (`ReleaseHandOff.swift`).
extension FilterSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        downstream.receive(subscription: subscription, handOff: handOff)
    }
}
