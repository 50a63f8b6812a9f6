// How a cancelled `Sink` learns when its closures may go, without an atomic exchange per value.
//
// A cancel may come from any thread while the upstream is calling the sink's value closure on
// another, and the closures must be released at the cancel (C16) but never while that call runs.
// On its own, the sink can settle that only by announcing each value (an atomic exchange per
// value, `Subscribers.Sink`'s `delivering`), a locked instruction on the path every value takes.
// The subscriptions that deliver most values already know when they are calling their subscriber:
// a sequence's emitter (`emitting`, under its lock), a subject's conduit (`wip`), and the relay of
// a per-value operator in front of either. They take the release over: `cancel(releasing:)`
// cancels and calls `releaseAfterCancel()` once nothing is calling the subscriber any more and
// nothing will: at once when nobody is delivering, otherwise on the delivering thread when its
// call has returned. A sink given such a subscription delivers its values without announcing them.
//
// The promise covers only calls the subscription itself makes, so it is kept only when every
// subscriber between it and the sink calls on from inside those calls and nowhere else
// (`DeliversInPlace`, decided from the subscriber's type where the subscription is made). An
// operator that passed the subscription on but delivered from elsewhere (a value sent after the
// upstream finished, or from another queue) would call the sink after the release; so would a
// subscriber written outside this module: neither is `DeliversInPlace`, and the sink then
// announces its values as before.

/// A subscriber that calls its downstream only from inside its upstream's calls to it, on that
/// thread, and gives it its upstream's subscription (or a `PerValueGate` over it): `Sink`, and
/// `map`, `filter`, `compactMap` and the per-value operators in front of one.
@usableFromInline
protocol DeliversInPlace {}

/// A subscriber that leaves the release of what it holds after a cancel to its upstream
/// (`Subscribers.Sink`).
@usableFromInline
protocol ReleaseAfterCancel: AnyObject {
    /// Called once, after `cancel(releasing:)`, when no signal to the subscriber is running and
    /// none will start; never with a lock held.
    func releaseAfterCancel()
}

/// A subscription that can take over a cancelled subscriber's release (see the top). The base
/// keeps no promise; the subscriptions that do override both members.
@usableFromInline
class ReleaseHandOffSubscription {
    @inlinable init() {}

    /// Whether `cancel(releasing:)` keeps its promise for this subscription (a relay keeps it
    /// only when its own upstream does); fixed before the subscription is handed downstream.
    @usableFromInline var handsOffRelease: Bool { false }

    /// Cancels, then calls `subscriber.releaseAfterCancel()` once nothing calls the subscriber any
    /// more: at once, or from the delivering thread after its call returns.
    @usableFromInline func cancel(releasing subscriber: any ReleaseAfterCancel) {
        subscriber.releaseAfterCancel()
    }
}

/// `subscription` as a `ReleaseHandOffSubscription`, when it is one. A check of its type and a
/// reinterpretation of the reference: `as?` on the existential costs several times more (two such
/// casts made a subscribe and cancel of `subject.map.sink` a third slower, by callgrind).
@inlinable
func releaseHandOff(_ subscription: any Subscription) -> ReleaseHandOffSubscription? {
    func opened<S: Subscription>(_ typed: S) -> ReleaseHandOffSubscription? {
        guard S.self is ReleaseHandOffSubscription.Type else { return nil }
        // `S` is that class or a subclass of it, so its value is one reference.
        return withUnsafePointer(to: typed) { UnsafeRawPointer($0).load(as: ReleaseHandOffSubscription.self) }
    }
    return opened(subscription)
}
