// How a cancelled `Sink` learns when its closures may go, without an atomic exchange per value.
//
// A cancel may come from any thread while the upstream is calling the sink's value closure on
// another, and the closures must be released at the cancel (C16) but never while that call runs.
// On its own, the sink settles that by announcing each value (`Subscribers.Sink`'s `delivering`:
// a sequentially consistent store before the closure and an exchange after it, two locked
// instructions on the path every value takes). A sequence's subscription already knows when it
// is calling its subscriber (its emitter, `emitting`, decided under its lock once per request,
// not per value), so it can take the release over: `cancel(releasing:)` cancels and calls
// `releaseAfterCancel()` once nothing calls the subscriber and nothing will: at once when nobody
// is emitting, otherwise on the emitting thread after its current call has returned. A subject's
// conduit knows it too (its `wip` names the one thread that may call the subscriber, and a send
// from inside a call is queued, not delivered there): at once when it is idle or retired,
// otherwise by its deliverer when it retires the conduit (`SubjectConduit.swift`). So do the
// engines behind `flatMap`/`merge`/`switchToLatest` and `zip`/`combineLatest`, whose `wip` works
// the same way (`MergeEngine`, `CombinerEngine`).
//
// The source says so once, at subscription, where every type is known: it subscribes a
// `ReleaseHandOffRelay` with `receive(subscription:handOff:)` instead of `receive(subscription:)`.
// Only subscribers that call their downstream from inside their upstream's calls and nowhere else
// are relays (`map`, `filter`, `compactMap`, the per-value operators, and `Sink` at the end), and a
// wrapper is one only when its downstream is (a conditional conformance), so the promise reaches
// the sink only through subscribers that keep it; anything else between (an operator that
// delivers later or elsewhere, a subscriber written outside this module) is subscribed the
// ordinary way and its sink announces its values as before. Nothing is tested per value, and a
// subscription made any other way pays nothing.

/// A subscription that can take over a cancelled subscriber's release (see the top).
@usableFromInline
protocol ReleaseHandOffSource: AnyObject {
    /// Cancels, then calls `subscriber.releaseAfterCancel()` once nothing calls the subscriber any
    /// more: at once, or on the delivering thread after its call returns. Never under a lock.
    func cancel(releasing subscriber: any ReleaseAfterCancel)
}

/// A subscriber that leaves the release of what it holds after a cancel to its upstream
/// (`Subscribers.Sink`).
@usableFromInline
protocol ReleaseAfterCancel: AnyObject {
    /// Called once, after `cancel(releasing:)`, when no signal to the subscriber is running and
    /// none will start; never with a lock held.
    func releaseAfterCancel()
}

/// A subscriber that calls its downstream only from inside its upstream's calls to it, on that
/// thread, and can be told at subscription that its upstream takes a cancelled sink's release
/// over (see the top).
@usableFromInline
protocol ReleaseHandOffRelay {
    /// `receive(subscription:)`, from a source that keeps the promise of `handOff`.
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource)
}

/// Gives `subscriber` its subscription: with `receive(subscription:handOff:)` when its type is a
/// `ReleaseHandOffRelay`, else with `receive(subscription:)`. Every source that can take a sink's
/// release over subscribes through this (or, with the subscriber in memory of its own,
/// `receiveHandingOff(at:…)`).
///
/// The cast is of the type, not the value: `subscriber as? any ReleaseHandOffRelay` boxes a
/// subscriber struct larger than an existential's three inline words (`map`'s: its downstream, a
/// closure and an identifier) in a heap object for the call, an allocation and a copy per
/// subscription (`subscribe-cancel`: 591 -> 662 M instructions). Once `S` is known the cast folds.
@inlinable
func handSubscription<S: Subscriber>(_ subscription: any Subscription, handOff: any ReleaseHandOffSource, to subscriber: S) {
    if S.self is any ReleaseHandOffRelay.Type {
        var copy = subscriber
        if withUnsafeMutablePointer(to: &copy, { receiveHandingOff(at: $0, subscription: subscription, handOff: handOff) }) { return }
    }
    subscriber.receive(subscription: subscription)
}

/// The hand-off half of `handSubscription(_:handOff:to:)`, for a subscriber called where `subscriber` points,
/// without a copy (a copy of a `map` subscriber is a retain and a release per reference in it).
@inlinable
func receiveHandingOff<S: Subscriber>(
    at subscriber: UnsafeMutablePointer<S>, subscription: any Subscription, handOff: any ReleaseHandOffSource
) -> Bool {
    guard let relay = S.self as? any ReleaseHandOffRelay.Type else { return false }
    func call<R: ReleaseHandOffRelay>(_: R.Type) {
        // `R` is `S` (the cast above).
        receiveHandOffInPlace(&UnsafeMutableRawPointer(subscriber).assumingMemoryBound(to: R.self).pointee, subscription, handOff)
    }
    call(relay)
    return true
}

/// Calls `receive(subscription:handOff:)` on a relay kept in place, without copying it: an
/// `inout` parameter is exclusive, so the optimiser borrows it where it is (as `receiveInPlace`
/// does for values). Never inlined, for the same reason.
@inlinable
@inline(never)
func receiveHandOffInPlace<R: ReleaseHandOffRelay>(_ relay: inout R, _ subscription: any Subscription, _ handOff: any ReleaseHandOffSource) {
    relay.receive(subscription: subscription, handOff: handOff)
}
