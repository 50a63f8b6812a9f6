import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// How subjects deliver (shared by PassthroughSubject and CurrentValueSubject). Four files:
// the subject's state and its send (here), the table of its conduits in subscription order
// (ConduitTable.swift), the conduit that delivers to one subscriber (SubjectConduit.swift), and
// the conduit's subclasses that hold the subscriber (SubscriberSlot.swift).
//
// One lock per subject guards the subject's state and the state of every subscription to it
// (a "conduit"). Nothing is called while it is held. Demand is taken when a value is accepted
// (delivered or queued): a value that finds a subscriber without demand is dropped for that
// subscriber, as Combine does (C11).
//
// Lifetime rule the send path relies on to deliver without retaining the conduit (the
// `Unmanaged` conduit in `SubjectStorage.send`): a conduit stays in the subject's `conduits` until
// the thread that owns it retires it: a cancel or completion that finds it idle (and raises `wip`
// for good), or else its deliverer, when it sees the cancel or delivers the pending completion.
// So a sender that became a conduit's deliverer under the lock may use it unretained: the table
// keeps it alive until the sender itself retires it, and the retired reference is handed back to
// be released after the call.

/// The part of a subject's state that does not depend on its types, all under `lock`. Keeping it
/// (and `SubjectConduitBase`) non-generic makes `request` and `cancel`, which arrive through
/// `any Subscription` and so are never specialised, cheap: no generic metadata lookups.
@usableFromInline
class SubjectCore {
    @usableFromInline final let lock = Lock()
    @usableFromInline @exclusivity(unchecked) final var conduits = ConduitTable()
    @usableFromInline @exclusivity(unchecked) final var isCompleted = false
    @usableFromInline final let keepsCurrentValue: Bool
    @usableFromInline @exclusivity(unchecked) final var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values: from then on upstreams are asked for `.unlimited`.
    @usableFromInline @exclusivity(unchecked) final var upstreamRequested = false
    /// `CurrentValueSubject` conduits whose subscriber is in `receive(subscription:)`, with the
    /// thread that called it: a request from there gets the current value before that call returns.
    @exclusivity(unchecked) final var attaching: [(conduit: ObjectIdentifier, thread: pthread_t)] = []

    @usableFromInline
    init(keepsCurrentValue: Bool) {
        self.keepsCurrentValue = keepsCurrentValue
    }

    @usableFromInline
    final func send(subscription: any Subscription) {
        let (accepted, requestNow) = lock.guarded { () -> (Bool, Bool) in
            guard !isCompleted else { return (false, false) }
            upstreams.append(subscription)
            // A CurrentValueSubject keeps what it receives, so it asks at once (as Combine does).
            return (true, upstreamRequested || keepsCurrentValue)
        }
        if !accepted {
            subscription.cancel()
        } else if requestNow {
            subscription.request(.unlimited)
        }
    }

    deinit {
        // Conduits keep their core alive, so none is left here; this only keeps the table honest.
        for entry in conduits.entries { entry.conduit?.release() }
    }

    /// Removes `conduit` (O(1)) and returns it, for the caller to release after the lock (its
    /// deinit may call back into the subject); called with the lock held.
    @usableFromInline
    final func remove(_ conduit: SubjectConduitBase) -> SubjectConduitBase? {
        conduits.remove(conduit)
    }

    /// Upstreams to ask for `.unlimited` now that a subscriber has demand (nil when they already
    /// were); called with the lock held.
    @usableFromInline
    final func takeUpstreamsToRequest() -> [any Subscription]? {
        if upstreamRequested { return nil }
        upstreamRequested = true
        return upstreams.isEmpty ? nil : upstreams
    }

    /// Notes (or forgets) that `conduit`'s subscriber is being handed its subscription on this
    /// thread; called with the lock held.
    @usableFromInline
    final func setAttaching(_ conduit: SubjectConduitBase, _ isAttaching: Bool) {
        let id = ObjectIdentifier(conduit)
        if isAttaching {
            attaching.append((id, pthread_self()))
        } else if let index = attaching.firstIndex(where: { $0.conduit == id }) {
            attaching.remove(at: index)
        }
    }

    /// Whether `conduit`'s subscriber is in `receive(subscription:)` on this thread; called with
    /// the lock held.
    final func isAttachingHere(_ conduit: SubjectConduitBase) -> Bool {
        let id = ObjectIdentifier(conduit)
        return attaching.contains { $0.conduit == id && pthread_equal($0.thread, pthread_self()) != 0 }
    }

    /// Takes the upstream subscriptions to cancel them (when the subject goes away).
    @usableFromInline
    final func takeUpstreams() -> [any Subscription] {
        lock.guarded {
            let taken = upstreams
            upstreams = []
            return taken
        }
    }
}

/// The typed state of a subject: its completion and, for a `CurrentValueSubject`, its value.
@usableFromInline
final class SubjectStorage<Output, Failure: Error>: SubjectCore {
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    /// The current value of a `CurrentValueSubject`; always nil for a `PassthroughSubject`.
    @usableFromInline @exclusivity(unchecked) var current: Output?

    @inlinable
    init(current: Output?) {
        self.current = current
        super.init(keepsCurrentValue: current != nil)
    }

    @usableFromInline
    enum SendPlan {
        case none
        /// The only subscriber, whose deliverer the sender became: kept alive by `conduits`.
        case one(Unmanaged<SubjectConduit<Output, Failure>>)
        /// Walk the table: the conduits that subscribed before serial `end`.
        case walk(end: UInt64, generation: UInt)
    }

    /// What a send does, decided with the lock held.
    @inlinable
    @inline(__always)
    func plan(_ input: Output) -> SendPlan {
        guard !isCompleted else { return .none }
        if keepsCurrentValue { current = input }
        switch conduits.count {
        case 0:
            return .none
        case 1:
            // The one conduit moves to the front (once: holes before it are squeezed out).
            if conduits.entries.count != 1 { conduits.compact() }
            // Unretained from the start: the table keeps it alive (a retain here is a tenth of the cost).
            let conduit = Unmanaged<SubjectConduit<Output, Failure>>.fromOpaque(conduits.entries[0].conduit.unsafelyUnwrapped.toOpaque())
            return conduit._withUnsafeGuaranteedRef { $0.accept(input) } ? .one(conduit) : .none
        default:
            return .walk(end: conduits.nextSerial, generation: conduits.generation)
        }
    }

    /// Sends `input` to every conduit with demand, in subscription order.
    @inlinable
    func send(_ input: Output) {
        // The lock taken and released by hand around a method, not `guarded` and a closure: the
        // optimiser kept the closure out of line here (forty instructions of a send's two hundred).
        lock.storage.lock()
        let plan = plan(input)
        lock.storage.unlock()
        switch plan {
        case .none:
            return
        case .one(let conduit):
            // Unretained (see the top); retired only when a cancel or completion came meanwhile,
            // and then released here, after the call.
            if let retired = conduit._withUnsafeGuaranteedRef({ $0.run(first: input) }) { withExtendedLifetime(retired) {} }
        case .walk(let end, let generation):
            sendWalking(input, end: end, generation: generation)
        }
    }

    /// A send's walk of a table of several conduits, from `plan`'s `.walk`. Out of line, so the
    /// one-subscriber path of `send` saves no registers for it.
    @inlinable
    @inline(never)
    func sendWalking(_ input: Output, end: UInt64, generation: UInt) {
        typealias Typed = SubjectConduit<Output, Failure>
        var generation = generation
        // One lock hold per conduit delivered to: nothing is called with it held, and a
        // subscriber may subscribe, cancel or send from inside its `receive` (see
        // ConduitTable). Conduits that take nothing (no demand, busy: queued) are passed in
        // the same hold, up to `scanLimit`, so that other threads wait for it only briefly.
        let scanLimit = 32
        var position = 0
        var nextSerial: UInt64 = 0
        var more = true
        while more {
            let next = lock.guarded { () -> Unmanaged<Typed>? in
                if conduits.generation != generation {
                    generation = conduits.generation
                    position = conduits.position(ofSerial: nextSerial)
                }
                for _ in 0..<scanLimit {
                    guard let found = conduits.next(from: position, before: end) else {
                        more = false
                        return nil
                    }
                    position = found.position + 1
                    nextSerial = found.serial + 1
                    let conduit = Unmanaged<Typed>.fromOpaque(found.conduit.toOpaque())
                    switch conduit._withUnsafeGuaranteedRef({ $0.admit() }) {
                    case .deliver: return conduit
                    case .queue: conduit._withUnsafeGuaranteedRef { $0.enqueue(input) }
                    case .skip: break
                    }
                }
                return nil
            }
            if let next, let retired = next._withUnsafeGuaranteedRef({ $0.run(first: input) }) {
                withExtendedLifetime(retired) {}
            }
        }
    }

    /// Completes every conduit; later sends and subscribers see the stored completion.
    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        // What the lock gives up is released after it: a subscriber's deinit may call back in.
        let (ready, upstreamsReleased) = lock.guarded {
            () -> (ContiguousArray<SubjectConduitBase>, [any Subscription]) in
            guard !isCompleted else { return ([], []) }
            isCompleted = true
            self.completion = completion
            let ups = upstreams
            upstreams = []
            // A busy conduit stays (an idle one is never left in the table after a cancel): its
            // deliverer completes or drops it, and retires it.
            let ready = conduits.removeAll { unsafeDowncast($0, to: SubjectConduit<Output, Failure>.self).complete() }
            return (ready, ups)
        }
        for conduit in ready { unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self).finish(completion) }
        withExtendedLifetime(upstreamsReleased) {}
    }

    /// Attaches a subscriber through a new conduit (or, once completed, gives it the completion);
    /// the conduit keeps `owner`, the subject, alive.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S, owner: AnyObject) where S.Input == Output, S.Failure == Failure {
        let conduit = makeConduit(for: subscriber, owner: owner)
        let finished = lock.guarded { () -> Subscribers.Completion<Failure>? in
            if let completion { return completion }
            conduits.append(conduit)
            if keepsCurrentValue { setAttaching(conduit, true) }
            return nil
        }
        if let finished {
            conduit.discard()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: finished)
            return
        }
        // The conduit starts with `wip == 1`: nothing reaches the subscriber before its subscription.
        // A `CurrentValueSubject` subscriber that requests from inside `receive(subscription:)`
        // gets the current value there, before it returns, as in Combine (`sendCurrentValue`).
        // Through relays to a `Sink`, the conduit takes the sink's release after a cancel over
        // (`ReleaseHandOff.swift`); the cast folds away once the subscriber's type is known. The
        // subscriber is called where the conduit keeps it, not copied.
        conduit.handSubscription(to: S.self)
        if keepsCurrentValue { lock.guarded { setAttaching(conduit, false) } }
        let retired = conduit.drain(adding: .none)
        withExtendedLifetime(retired) {}
    }
}
