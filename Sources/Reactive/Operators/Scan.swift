extension Publisher {
    /// Publishes each running result of combining the values with an accumulating closure.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.scan(0, +)   // 1, 3, 6
    /// ```
    /// - Parameters:
    ///   - initialResult: The accumulator before the first value.
    ///   - nextPartialResult: Combines the accumulator with the next value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher `scan(_:_:)` returns.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The accumulator before the first value.
        public let initialResult: Output
        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        @inlinable
        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ScanSubscriber(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

/// Scan's subscriber (top level for the reason given on `MapSubscriber`). It passes the upstream
/// subscription straight through (demand is one-for-one); the accumulator needs no lock because
/// upstream never calls `receive(_:)` concurrently (C25).
@usableFromInline
final class ScanSubscriber<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var result: Downstream.Input
    @usableFromInline let nextPartialResult: (Downstream.Input, Input) -> Downstream.Input

    @inlinable
    init(downstream: Downstream, initialResult: Downstream.Input, nextPartialResult: @escaping (Downstream.Input, Input) -> Downstream.Input) {
        self.downstream = downstream
        self.result = initialResult
        self.nextPartialResult = nextPartialResult
    }

    @usableFromInline var description: String { "Scan" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        result = nextPartialResult(result, input)
        return downstream.receive(result)
    }
    @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) { downstream.receive(completion: completion) }
}

/// It calls its downstream only from inside its upstream's calls, so a source's promise to release
/// a cancelled sink only when nothing calls it holds through it (`ReleaseHandOff.swift`).
extension ScanSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        downstream.receive(subscription: subscription, handOff: handOff)
    }
}
