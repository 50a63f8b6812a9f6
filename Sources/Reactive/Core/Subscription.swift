/// The link between a publisher and one subscriber: requests values and cancels.
///
/// Implementations must be safe to call from any thread, including from inside the subscriber's
/// own `receive` methods. After `cancel()` or a completion, `request` and `cancel` do nothing.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Asks for `demand` more values, added to what is already outstanding.
    ///
    /// `request(.none)` is a no-op (it adds nothing); it never traps.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for well-known subscriptions.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete or fail at once.
    public static var empty: any Subscription { EmptySubscription.shared }
}

@usableFromInline
final class EmptySubscription: Subscription, Sendable {
    @usableFromInline static let shared = EmptySubscription()
    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline func request(_ demand: Subscribers.Demand) {}
    @usableFromInline func cancel() {}
}
