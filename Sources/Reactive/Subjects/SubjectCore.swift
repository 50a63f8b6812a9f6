import Synchronization


// How subjects deliver (shared by PassthroughSubject and CurrentValueSubject).
//
// One lock per subject guards the subject's state and the state of every subscription to it
// (a "conduit"). Nothing is called while it is held. Each conduit delivers to its subscriber one
// signal at a time, counted by its atomic `wip` ("work in progress"): whoever raises it from 0 to
// 1 (always under the lock) becomes the conduit's *deliverer* and calls the subscriber without the
// lock; anyone who raises it further (a value sent from another thread, or from inside the
// subscriber's own `receive`, C22; a cancel; a completion; a request owed the current value) only
// queues the work under the lock, and the deliverer does it when its call returns, lowering `wip`
// by one per item. So `receive` is never entered twice at once (C25), a re-entrant send is a
// trampoline, not a recursion (it reaches that subscriber after the call that sent it returns, and
// the subject's other subscribers at once), and the common case, a send that finds the conduit
// idle, takes the lock once: afterwards a single atomic decrement to 0 ends the delivery.
//
// Demand is taken when a value is accepted (delivered or queued): a value that finds a subscriber
// without demand is dropped for that subscriber, as Combine does (C11).

/// One signal for a conduit's subscriber.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// The part of a subject's state that does not depend on its types, all under `lock`. Keeping it
/// (and `SubjectConduitBase`) non-generic makes `request` and `cancel`, which arrive through
/// `any Subscription` and so are never specialised, cheap: no generic metadata lookups.
@usableFromInline
class SubjectCore {
    @usableFromInline final let lock = Lock()
    @usableFromInline final var conduits: ContiguousArray<SubjectConduitBase> = []
    @usableFromInline final var isCompleted = false
    @usableFromInline final let keepsCurrentValue: Bool
    @usableFromInline final var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values: from then on upstreams are asked for `.unlimited`.
    @usableFromInline final var upstreamRequested = false

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

    /// Removes `conduit` (on cancel); called with the lock held.
    @usableFromInline
    final func remove(_ conduit: SubjectConduitBase) {
        for index in conduits.indices where conduits[index] === conduit {
            conduits.remove(at: index)
            return
        }
    }

    /// Upstreams to ask for `.unlimited` now that a subscriber has demand; called with the lock held.
    @usableFromInline
    final func takeUpstreamsToRequest() -> [any Subscription] {
        if upstreamRequested { return [] }
        upstreamRequested = true
        return upstreams
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
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The current value of a `CurrentValueSubject`; always nil for a `PassthroughSubject`.
    @usableFromInline var current: Output?

    @inlinable
    init(current: Output?) {
        self.current = current
        super.init(keepsCurrentValue: current != nil)
    }

    @inlinable
    func conduit(at index: Int) -> SubjectConduit<Output, Failure> {
        unsafeDowncast(conduits[index], to: SubjectConduit<Output, Failure>.self)
    }

    /// Sends `input` to every conduit with demand.
    @inlinable
    func send(_ input: Output) {
        let plan = lock.guarded { () -> SendPlan in
            guard !isCompleted else { return .none }
            if keepsCurrentValue { current = input }
            switch conduits.count {
            case 0: return .none
            case 1:
                let conduit = self.conduit(at: 0)
                return conduit.accept(input) ? .one(conduit) : .none
            default:
                return .all(conduits)
            }
        }
        switch plan {
        case .none:
            return
        case .one(let conduit):
            conduit.run(first: input)
        case .all(let all):
            for base in all {
                let conduit = unsafeDowncast(base, to: SubjectConduit<Output, Failure>.self)
                if lock.guarded({ conduit.accept(input) }) { conduit.run(first: input) }
            }
        }
    }

    @usableFromInline
    enum SendPlan {
        case none
        case one(SubjectConduit<Output, Failure>)
        case all(ContiguousArray<SubjectConduitBase>)
    }

    /// Completes every conduit; later sends and subscribers see the stored completion.
    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        // What the lock gives up is released after it: a subscriber's deinit may call back in.
        let (ready, released, upstreamsReleased) = lock.guarded {
            () -> ([SubjectConduit<Output, Failure>.Deliver], ContiguousArray<SubjectConduitBase>, [any Subscription]) in
            guard !isCompleted else { return ([], [], []) }
            isCompleted = true
            self.completion = completion
            let all = conduits
            let ups = upstreams
            conduits = []
            upstreams = []
            var ready: [SubjectConduit<Output, Failure>.Deliver] = []
            for base in all {
                let conduit = unsafeDowncast(base, to: SubjectConduit<Output, Failure>.self)
                if let deliver = conduit.complete() { ready.append(deliver) }
            }
            return (ready, all, ups)
        }
        for deliver in ready { _ = deliver(.completion(completion)) }
        withExtendedLifetime((released, upstreamsReleased)) {}
    }

    /// Attaches a subscriber through a new conduit (or, once completed, gives it the completion).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit<Output, Failure>(storage: self) { signal in
            switch signal {
            case .value(let value):
                return subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
                return .none
            }
        }
        let finished = lock.guarded { () -> Subscribers.Completion<Failure>? in
            if let completion { return completion }
            conduits.append(conduit)
            return nil
        }
        if let finished {
            conduit.discard()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: finished)
            return
        }
        // The conduit starts with `wip == 1`: nothing reaches the subscriber before its subscription.
        subscriber.receive(subscription: conduit)
        conduit.drain(adding: .none)
    }
}

/// One subscriber's subscription to a subject: the untyped half. Its state is guarded by the
/// subject's lock.
@usableFromInline
class SubjectConduitBase: Subscription, CustomStringConvertible {
    @usableFromInline final let core: SubjectCore
    @usableFromInline final var demand = Subscribers.Demand.none
    /// Work in progress: 1 while one thread (the deliverer) may call the subscriber, plus one per
    /// item of work queued for it. It starts at 1: the subscriber is being handed its subscription.
    /// Raised only under the lock; lowered only by the deliverer.
    @usableFromInline final let wip = Atomic<Int>(1)
    @usableFromInline final var state = ConduitState.active
    /// The subject completed while a delivery was in progress: the deliverer sends the completion.
    @usableFromInline final var completionPending = false
    /// A `CurrentValueSubject` subscriber still owed the current value (sent at its first demand).
    @usableFromInline final var needsCurrentValue: Bool

    @usableFromInline
    init(core: SubjectCore) {
        self.core = core
        needsCurrentValue = core.keepsCurrentValue
    }

    @usableFromInline var description: String { core.keepsCurrentValue ? "CurrentValueSubject" : "PassthroughSubject" }

    @usableFromInline
    final func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let (upstreams, owesValue) = core.lock.guarded { () -> ([any Subscription], Bool) in
            guard state == .active else { return ([], false) }
            demand += more
            return (core.takeUpstreamsToRequest(), needsCurrentValue)
        }
        for upstream in upstreams { upstream.request(.unlimited) }
        if owesValue { sendCurrentValue() }
    }

    @usableFromInline
    final func cancel() {
        let release = core.lock.guarded { () -> Bool in
            guard state == .active else { return false }
            state = .cancelled
            completionPending = false
            core.remove(self)
            // Whoever takes the conduit from idle owns it from now on; it is never lowered again,
            // so nobody delivers after this. If a deliverer is busy, it releases the subscriber.
            return wip.add(1, ordering: .acquiringAndReleasing).newValue == 1
        }
        // Cancelled and idle: nobody else touches the subscriber any more, so it is released
        // here, after the lock (its deinit may call back into the subject).
        if release { releaseSubscriber() }
    }

    /// Drops the subscriber; called by the only thread that may still touch it, without the lock.
    @usableFromInline
    func releaseSubscriber() {}

    /// Delivers the current value of a `CurrentValueSubject` if it is still owed.
    @usableFromInline
    func sendCurrentValue() {}
}

@usableFromInline
enum ConduitState { case active, cancelled, finished }

/// One subscriber's subscription to a subject: the typed half, which calls the subscriber.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: SubjectConduitBase {
    @usableFromInline typealias Deliver = (SubjectSignal<Output, Failure>) -> Subscribers.Demand

    /// Calls the subscriber. Only the deliverer calls it, without the lock.
    @usableFromInline var deliver: Deliver?
    /// Values accepted while the deliverer was busy. A delivered slot is set to nil at once, so
    /// the queue never keeps (and never frees under the lock) a value it handed out.
    @usableFromInline var queue: ContiguousArray<Output?> = []
    @usableFromInline var queueHead = 0

    @inlinable
    init(storage: SubjectStorage<Output, Failure>, deliver: @escaping Deliver) {
        self.deliver = deliver
        super.init(core: storage)
    }

    @inlinable
    var storage: SubjectStorage<Output, Failure> { unsafeDowncast(core, to: SubjectStorage<Output, Failure>.self) }

    /// Takes demand for `input` if there is any; returns true if the caller must now deliver it
    /// (it became the deliverer). Called with the lock held.
    @inlinable
    func accept(_ input: Output) -> Bool {
        guard state == .active, !completionPending, demand > 0 else { return false }
        demand -= 1
        needsCurrentValue = false
        if wip.add(1, ordering: .acquiringAndReleasing).newValue == 1 { return true }
        queue.append(input)
        return false
    }

    /// Delivers `first` (already accepted), then whatever was queued meanwhile.
    @inlinable
    func run(first: Output) {
        // Only the deliverer reads `deliver` outside the lock. (`if let`, not
        // `unsafelyUnwrapped`: the generic unwrap re-abstracts the closure, which allocates.)
        guard let deliver else { return }
        drain(adding: deliver(.value(first)))
    }

    /// Ends the deliverer's current item (adding the demand it returned) and does the queued
    /// work, one item per unit of `wip`, until none is left.
    @inlinable
    func drain(adding more: Subscribers.Demand) {
        var more = more
        while true {
            if more > 0 {
                core.lock.guarded {
                    if state == .active { demand += more }
                }
            }
            if wip.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
            let step = core.lock.guarded { () -> Step in
                if state != .active {
                    // Cancelled: `wip` stays raised, so nobody delivers again.
                    let dropped = queue
                    queue = []
                    queueHead = 0
                    let released = deliver
                    deliver = nil
                    return .stop(released, dropped)
                }
                if queueHead < queue.count, let next = queue[queueHead] {
                    queue[queueHead] = nil
                    queueHead += 1
                    if queueHead == queue.count {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    return .value(next)
                }
                if needsCurrentValue, !completionPending, demand > 0, let current = storage.current {
                    needsCurrentValue = false
                    demand -= 1
                    return .value(current)
                }
                if completionPending, let completion = storage.completion {
                    state = .finished
                    let released = deliver
                    deliver = nil
                    return .complete(released, completion)
                }
                return .idle
            }
            switch step {
            case .value(let next):
                more = deliver?(.value(next)) ?? .none
            case .complete(let target, let completion):
                _ = target?(.completion(completion))
                return
            case .stop:
                return
            case .idle:
                more = .none
            }
        }
    }

    @usableFromInline
    enum Step {
        case value(Output)
        case complete(Deliver?, Subscribers.Completion<Failure>)
        case stop(Deliver?, ContiguousArray<Output?>)
        case idle
    }

    /// Marks the conduit completed; returns the subscriber to complete now, or nil if the deliverer
    /// will (after what it has queued) or nobody should. Called with the lock held.
    @usableFromInline
    func complete() -> Deliver? {
        guard state == .active else { return nil }
        if wip.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
            completionPending = true  // the deliverer completes after what it has queued
            return nil
        }
        state = .finished
        let target = deliver
        deliver = nil
        return target
    }

    /// Drops a conduit that was never handed out (the subject had completed).
    @usableFromInline
    func discard() {
        let released = core.lock.guarded { () -> Deliver? in
            state = .finished
            let released = deliver
            deliver = nil
            return released
        }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    override func releaseSubscriber() {
        deliver = nil
    }

    @usableFromInline
    override func sendCurrentValue() {
        let first = core.lock.guarded { () -> Output? in
            guard state == .active, needsCurrentValue, !completionPending, demand > 0,
                let current = storage.current
            else { return nil }
            // Busy: the deliverer sends the current value when its call returns.
            guard wip.add(1, ordering: .acquiringAndReleasing).newValue == 1 else { return nil }
            needsCurrentValue = false
            demand -= 1
            return current
        }
        if let first { run(first: first) }
    }
}
