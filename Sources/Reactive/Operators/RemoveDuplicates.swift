extension Publisher where Output: Equatable {
    /// Passes on a value only if it differs from the value before it.
    ///
    /// Each skipped value asks upstream for one more (C13).
    ///
    /// ```swift
    /// [1, 1, 2, 2, 1].publisher.removeDuplicates()   // 1, 2, 1
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Passes on a value only if `predicate` says it is not a duplicate of the previous value
    /// passed on.
    ///
    /// ```swift
    /// ["a", "A", "b"].publisher.removeDuplicates { $0.lowercased() == $1.lowercased() }   // "a", "b"
    /// ```
    /// - Parameter predicate: Returns `true` when the new value (second argument) duplicates the
    ///   previous one (first argument).
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `removeDuplicates()` and `removeDuplicates(by:)` return.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose repeated values are skipped.
        public let upstream: Upstream
        /// Whether the second value duplicates the first.
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: RemoveDuplicatesSubscriber(downstream: subscriber, predicate: predicate))
        }
    }
}

/// RemoveDuplicates' subscriber (top level for the reason given on `MapSubscriber`). It passes
/// the upstream subscription straight through; the last value needs no lock because upstream
/// never calls `receive(_:)` concurrently (C25).
@usableFromInline
final class RemoveDuplicatesSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline let predicate: (Downstream.Input, Downstream.Input) -> Bool
    @usableFromInline @exclusivity(unchecked) var last: Downstream.Input?

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Downstream.Input, Downstream.Input) -> Bool) {
        self.downstream = downstream
        self.predicate = predicate
    }

    @usableFromInline var description: String { "RemoveDuplicates" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        if let last, predicate(last, input) { return .max(1) }
        last = input
        return downstream.receive(input)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        last = nil
        downstream.receive(completion: completion)
    }
}

/// It calls its downstream only from inside its upstream's calls, so a source's promise to release
/// a cancelled sink only when nothing calls it holds through it (`ReleaseHandOff.swift`).
extension RemoveDuplicatesSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        downstream.receive(subscription: subscription, handOff: handOff)
    }
}
