/// A type that can deliver a sequence of values over time to one or more subscribers.
///
/// Publishers follow the same rules as Combine's: every subscriber first receives exactly one
/// subscription, then at most as many values as it has requested, then at most one completion.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values this publisher produces.
    associatedtype Output
    /// The kind of error this publisher may fail with; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber`; the publisher must call `subscriber.receive(subscription:)` exactly once.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher.
    ///
    /// - Parameter subscriber: The subscriber to attach; it receives a subscription first.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// A namespace for the publishers that operators return (`Publishers.Map`, `Publishers.Filter`, …).
public enum Publishers {}
