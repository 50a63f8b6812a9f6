/// A type that receives values and a completion from a publisher.
///
/// The publisher calls `receive(subscription:)` once, then `receive(_:)` no more often than the
/// subscriber asked for, then at most one `receive(completion:)`. Calls are never made concurrently.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber accepts.
    associatedtype Input
    /// The kind of error this subscriber accepts.
    associatedtype Failure: Error

    /// Called once, first; keep the subscription and request values through it.
    func receive(subscription: any Subscription)
    /// Called with each value; returns how many more values the subscriber wants on top of what it asked for.
    func receive(_ input: Input) -> Subscribers.Demand
    /// Called at most once, last: the publisher finished or failed.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Delivers `()` to a subscriber of `Void` values.
    @inlinable
    public func receive() -> Subscribers.Demand { receive(()) }
}

/// A namespace for subscriber types and for `Demand` and `Completion`.
public enum Subscribers {}
