/// The lifecycle of a wrapping subscription: waiting for upstream's subscription, subscribed,
/// or terminated (completed or cancelled). Kept under the owner's lock.
@usableFromInline
enum SubscriptionStatus {
    case awaitingSubscription
    case subscribed(any Subscription)
    case terminated

    /// Accepts the first subscription; false for a second one (cancel it, C06) or after termination.
    @inlinable
    mutating func subscribe(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = self { return true }
        return false
    }

    @inlinable
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Moves to `.terminated`; returns the upstream subscription if this call ended it (to cancel
    /// it or drop it), `nil` if it was already over. A cancel before the subscription arrived
    /// terminates too, and the late subscription is then cancelled.
    @inlinable
    mutating func terminate() -> (any Subscription)? {
        switch self {
        case .subscribed(let subscription):
            self = .terminated
            return subscription
        case .awaitingSubscription:
            self = .terminated
            return nil
        case .terminated:
            return nil
        }
    }
}
