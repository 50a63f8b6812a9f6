import Synchronization

/// A publisher that emits one value and finishes. It never fails.
///
/// ```swift
/// Just(42).sink { print($0) }   // 42
/// ```
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The value to emit.
    public let output: Output

    /// Creates a publisher of `output`.
    @inlinable
    public init(_ output: Output) { self.output = output }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(downstream: subscriber, value: output))
    }
}

extension Just: Sendable where Output: Sendable {}
extension Just: Equatable where Output: Equatable {}

/// Sends one value once demand arrives, then finishes.
@usableFromInline
final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var value: Downstream.Input?
    /// `handleRequest`, captured where the types are concrete. `request` is reached through `any
    /// Subscription`, whose witness is the unspecialised generic code: it looked up the metadata
    /// of `Optional<(Downstream, Downstream.Input)>` and of the tuple in the runtime's caches on
    /// every call (half of subscribing a sink to a `Just`, `count()` of a sequence publisher
    /// included). Calling through this closure runs the specialised copy, as `SequenceSubscription` does.
    @usableFromInline let specializedRequest: (JustSubscription, Subscribers.Demand) -> Void

    @inlinable
    init(downstream: Downstream, value: Downstream.Input) {
        self.downstream = downstream
        self.value = value
        self.specializedRequest = { $0.handleRequest($1) }
    }

    @usableFromInline var description: String { "Just" }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        specializedRequest(self, demand)
    }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let taken = lock.guarded { () -> (Downstream, Downstream.Input)? in
            guard let downstream, let value else { return nil }
            self.downstream = nil
            self.value = nil
            return (downstream, value)
        }
        guard let (downstream, value) = taken else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        lock.guarded {
            downstream = nil
            value = nil
        }
    }
}
