import Synchronization

// A per-value operator (`tryMap`, `tryFilter`, `tryCompactMap`) in front of anything but a fresh
// step engine (which it fuses with: `StepFusion.swift`).
//
// A step engine keeps the logic (the user's closures) and the downstream in the object the
// downstream holds as its subscription, so a cancel must release them at once, and every value
// owns them with a compare-and-swap in and one out to agree with a cancel on another thread: two
// locked instructions per value, about half of `tryMap { … }.tryFilter { … }.sink`'s time. A
// per-value operator needs no such ownership: like `map`, it keeps its logic and downstream in the
// subscriber the upstream holds (`PerValueSubscriber`), which the upstream releases when it is
// cancelled or ends, as it releases any subscriber; the subscription the downstream sees
// (`PerValueGate`) holds only the upstream and the status. A value reads one atomic flag
// (`PerValueGate.open`) and writes nothing shared. Subscribed by a source that takes a cancelled
// sink's release over (`receive(subscription:handOff:)`, `ReleaseHandOff.swift`), the gate passes
// that promise on: `cancel(releasing:)` goes up to the source with the cancel.
//
// The contract, as the engine kept it: the first error or completion is the only one (the gate's
// status, under its lock, decides between it and a cancel), a thrown error cancels upstream before
// the `.failure` goes down (C33); after either, or after a cancel, request and cancel are no-ops
// (C05) and no value passes (C15: the gate is read once per value, after the logic); a second subscription is cancelled (C06); demand goes upstream
// one for one, a dropped value asks for one more (C13); no lock is held while calling out (C23).
// Release (C16, C17): the closures and the downstream go with the subscriber when the upstream
// lets go of it, after a cancel or its completion; the gate drops the upstream at the end, so
// nothing keeps the subscriber alive (C19).

/// The subscriber a per-value operator gives its upstream: runs the logic on each value and
/// calls the downstream, borrowed. Touched only by the upstream's signals, one at a time (C25).
@usableFromInline
final class PerValueSubscriber<Logic: PerValueLogic, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline typealias Input = Logic.Input
    @usableFromInline typealias Failure = Logic.UpstreamFailure

    /// Mutated only by the upstream's signals, which never overlap (C25).
    @usableFromInline @exclusivity(unchecked) var logic: Logic
    @usableFromInline let downstream: Downstream
    @usableFromInline let gate: PerValueGate
    /// This subscriber ended the gate (a thrown error, or the upstream's completion): the logic
    /// is not called again, whatever a misbehaving upstream sends. Only the upstream's signals
    /// touch it (C25).
    @usableFromInline @exclusivity(unchecked) var ended = false

    @inlinable
    init(logic: Logic, downstream: Downstream) {
        self.logic = logic
        self.downstream = downstream
        self.gate = PerValueGate(name: Logic.operatorName)
    }

    @usableFromInline var description: String { Logic.operatorName }

    @inlinable
    func receive(subscription: any Subscription) {
        guard gate.attach(subscription) else {
            subscription.cancel()  // C06: keep the first subscription
            return
        }
        downstream.receive(subscription: gate)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // The gate is read once per value, just before the value goes down: that is what keeps a
        // value from passing after a cancel, from inside the logic (a closure that cancels its
        // own pipeline, C15) or from another thread. Reading it before the logic too only saved a
        // call of the logic for a value racing a cancel from another thread (the upstream stops
        // at once after a cancel on its own thread), at two more loads per value.
        guard !ended else { return .none }
        switch logic.receive(input) {
        case .emit(let output):
            guard gate.isOpen else { return .none }
            return downstream.receive(output)
        case .skip(let extra):
            return extra
        case .fail(let error):
            fail(error)
            return .none
        case .finish:
            assertionFailure("\(Logic.self) is a PerValueLogic and must not finish early")
            return .none
        }
    }

    /// The logic threw: ends the gate, cancels upstream and sends the failure (C33). Out of line:
    /// inlined into the upstream's loop, this once-only path cost every value register spills.
    @inlinable
    @inline(never)
    func fail(_ error: Logic.Failure) {
        ended = true
        // Only if this ends it: a cancel or a completion that came first keeps it (C02).
        guard let upstream = gate.end() else { return }
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    @inlinable
    @inline(never)
    func receive(completion: Subscribers.Completion<Failure>) {
        ended = true
        guard gate.end() != nil else { return }
        let (_, passed) = logic.complete(completion)
        downstream.receive(completion: passed)
    }
}

/// Its downstream gets values only from inside the upstream's calls (`ReleaseHandOff.swift`).
extension PerValueSubscriber: ReleaseHandOffRelay where Downstream: ReleaseHandOffRelay {
    /// `receive(subscription:)` from a source that takes a cancelled sink's release over: the
    /// gate passes that promise on to the downstream.
    @inlinable
    func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        guard gate.attach(subscription, handOff: handOff) else {
            subscription.cancel()  // C06: keep the first subscription
            return
        }
        downstream.receive(subscription: gate, handOff: gate)
    }
}

/// The subscription a per-value operator gives its downstream: the upstream, until the end or a
/// cancel, and whether values may pass. Not generic, so it costs no metadata when it is freed.
@usableFromInline
final class PerValueGate: Subscription, CustomStringConvertible {
    @usableFromInline enum Status { case awaitingSubscription, subscribed, terminated }

    /// In place, not a `Lock`: one object less per subscription.
    @usableFromInline let lockWord = LockWord()
    /// `true` from the subscription until the end or a cancel; read without the lock per value.
    @usableFromInline let open = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    /// The upstream, when it takes a cancelled sink's release over (`ReleaseHandOff.swift`); then
    /// so does this gate, by passing `cancel(releasing:)` on. Under the lock, as `upstream`.
    @usableFromInline @exclusivity(unchecked) var upstreamHandOff: (any ReleaseHandOffSource)?
    @usableFromInline let name: String

    @inlinable
    init(name: String) { self.name = name }

    @usableFromInline var description: String { name }

    @inlinable
    @inline(__always)
    func locked<R>(_ body: () -> R) -> R { lockWord.guarded(ObjectIdentifier(self), body) }

    /// Whether values may pass.
    @inlinable
    @inline(__always)
    var isOpen: Bool { open.load(ordering: .acquiring) }

    /// Takes the first subscription; `false` for any later one (or one after a cancel).
    @inlinable
    func attach(_ subscription: any Subscription, handOff: (any ReleaseHandOffSource)? = nil) -> Bool {
        locked { () -> Bool in
            guard status == .awaitingSubscription else { return false }
            status = .subscribed
            upstream = subscription
            upstreamHandOff = handOff
            open.store(true, ordering: .releasing)
            return true
        }
    }

    /// Ends it from the upstream's side (its completion, or a thrown error): returns the upstream
    /// (to cancel, or to release after the lock), or `nil` when it had already ended or was
    /// cancelled, and nothing must be sent.
    @inlinable
    func end() -> (any Subscription)? {
        var handOff: (any ReleaseHandOffSource)?
        let taken = locked { () -> (any Subscription)? in
            guard status == .subscribed else { return nil }
            status = .terminated
            open.store(false, ordering: .releasing)
            handOff = upstreamHandOff.take()
            return upstream.take()
        }
        withExtendedLifetime(handOff) {}  // released after the lock
        return taken
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }  // C07: request(.none) is a no-op
        let target = locked { () -> (any Subscription)? in
            status == .subscribed ? upstream : nil
        }
        target?.request(more)
    }

    @inlinable
    func cancel() {
        var handOff: (any ReleaseHandOffSource)?
        let target = locked { () -> (any Subscription)?? in
            guard status != .terminated else { return nil }
            status = .terminated
            open.store(false, ordering: .releasing)
            handOff = upstreamHandOff.take()
            return .some(upstream.take())
        }
        // Released after the lock: the upstream's cancel may call back (C23).
        if let target { target?.cancel() }
        withExtendedLifetime(handOff) {}
    }
}

extension PerValueGate: ReleaseHandOffSource {
    /// Values reach the downstream only from inside the upstream's calls, so the upstream's
    /// promise covers them and is passed on. A gate already ended (by the upstream's completion
    /// or a thrown error, on the delivering thread, after its last value) sends no value any
    /// more, so the release may happen at once.
    @usableFromInline
    func cancel(releasing subscriber: any ReleaseAfterCancel) {
        var handOff: (any ReleaseHandOffSource)?
        let target = locked { () -> (any Subscription)? in
            guard status != .terminated else { return nil }
            status = .terminated
            open.store(false, ordering: .releasing)
            handOff = upstreamHandOff.take()
            return upstream.take()
        }
        if let handOff {
            withExtendedLifetime(target) { handOff.cancel(releasing: subscriber) }
        } else {
            target?.cancel()
            subscriber.releaseAfterCancel()
        }
    }
}
