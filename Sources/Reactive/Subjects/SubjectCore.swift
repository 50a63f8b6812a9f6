import Synchronization

// How subjects deliver (shared by PassthroughSubject and CurrentValueSubject).
//
// One lock per subject guards the subject's state and the state of every subscription to it
// (a "conduit"). Nothing is called while it is held. Each conduit delivers to its subscriber one
// signal at a time: the thread that finds it idle becomes its *deliverer* (`delivering = true`) and
// calls the subscriber without the lock; a value sent meanwhile, from another thread or from
// inside the subscriber's own `receive` (C22), is queued on the conduit and delivered by the
// deliverer when the current call returns. So `receive` is never entered twice at once (C25) and
// a re-entrant send is a trampoline, not a recursion: it reaches that subscriber after the call
// that sent it returns, and reaches the subject's other subscribers straight away.
//
// Demand is taken when a value is accepted (delivered or queued): a value that finds a subscriber
// without demand is dropped for that subscriber, as Combine does (C11).

/// One signal for a conduit's subscriber.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// The state a subject shares with its conduits, all under `lock`.
@usableFromInline
final class SubjectCore<Output, Failure: Error> {
    @usableFromInline let lock = Mutex<Void>(())
    @usableFromInline var conduits: ContiguousArray<SubjectConduit<Output, Failure>> = []
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The current value of a `CurrentValueSubject`; always nil for a `PassthroughSubject`.
    @usableFromInline var current: Output?
    @usableFromInline let keepsCurrentValue: Bool
    @usableFromInline var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values: from then on upstreams are asked for `.unlimited`.
    @usableFromInline var upstreamRequested = false

    @inlinable
    init(current: Output?) {
        self.current = current
        keepsCurrentValue = current != nil
    }

    /// Sends `input` to every conduit with demand.
    @inlinable
    func send(_ input: Output) {
        var all: ContiguousArray<SubjectConduit<Output, Failure>>? = nil
        let one = lock.guarded { () -> SubjectConduit<Output, Failure>? in
            guard completion == nil else { return nil }
            if keepsCurrentValue { current = input }
            switch conduits.count {
            case 0: return nil
            case 1:
                let conduit = conduits[0]
                return conduit.accept(input) ? conduit : nil
            default:
                all = conduits
                return nil
            }
        }
        if let one {
            one.run(first: input)
        } else if let all {
            for conduit in all where lock.guarded({ conduit.accept(input) }) {
                conduit.run(first: input)
            }
        }
    }

    /// Completes every conduit; later sends and subscribers see the stored completion.
    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        // What the lock gives up is released after it: a subscriber's deinit may call back in.
        let (ready, released, upstreamsReleased) = lock.guarded {
            () -> ([SubjectConduit<Output, Failure>.Deliver], ContiguousArray<SubjectConduit<Output, Failure>>, [any Subscription]) in
            guard self.completion == nil else { return ([], [], []) }
            self.completion = completion
            let all = conduits
            let ups = upstreams
            conduits = []
            upstreams = []
            var ready: [SubjectConduit<Output, Failure>.Deliver] = []
            for conduit in all {
                if let deliver = conduit.complete(completion) { ready.append(deliver) }
            }
            return (ready, all, ups)
        }
        for deliver in ready { _ = deliver(.completion(completion)) }
        withExtendedLifetime((released, upstreamsReleased)) {}
    }

    @usableFromInline
    func send(subscription: any Subscription) {
        let (accepted, requestNow) = lock.guarded { () -> (Bool, Bool) in
            guard completion == nil else { return (false, false) }
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

    /// Attaches a subscriber through a new conduit (or, once completed, gives it the completion).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit<Output, Failure>(core: self) { signal in
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
        // The conduit starts as "delivering": nothing reaches the subscriber before its subscription.
        subscriber.receive(subscription: conduit)
        conduit.drain(adding: .none)
    }

    /// Removes `conduit` (on cancel); called with the lock held.
    @usableFromInline
    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
    }

    /// Upstreams to ask for `.unlimited` now that a subscriber has demand; called with the lock held.
    @usableFromInline
    func takeUpstreamsToRequest() -> [any Subscription] {
        guard !upstreamRequested, !upstreams.isEmpty else {
            upstreamRequested = true
            return []
        }
        upstreamRequested = true
        return upstreams
    }

    /// Takes the upstream subscriptions to cancel them (when the subject goes away).
    @usableFromInline
    func takeUpstreams() -> [any Subscription] {
        lock.guarded {
            let taken = upstreams
            upstreams = []
            return taken
        }
    }
}

/// One subscriber's subscription to a subject. Its state is guarded by the subject's lock.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Deliver = (SubjectSignal<Output, Failure>) -> Subscribers.Demand

    @usableFromInline let core: SubjectCore<Output, Failure>
    /// Calls the subscriber. Only the deliverer calls it, without the lock; it is released under the
    /// lock only while nobody is delivering, or by the deliverer itself.
    @usableFromInline var deliver: Deliver?
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var delivering = true
    @usableFromInline var state = State.active
    @usableFromInline var queue: ContiguousArray<Output> = []
    @usableFromInline var queueHead = 0
    @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?
    /// A `CurrentValueSubject` subscriber still owed the current value (sent at its first demand).
    @usableFromInline var needsCurrentValue: Bool

    @usableFromInline enum State { case active, cancelled, finished }

    @inlinable
    init(core: SubjectCore<Output, Failure>, deliver: @escaping Deliver) {
        self.core = core
        self.deliver = deliver
        needsCurrentValue = core.keepsCurrentValue
    }

    @usableFromInline var description: String { core.keepsCurrentValue ? "CurrentValueSubject" : "PassthroughSubject" }

    /// Takes demand for `input` if there is any; returns true if the caller must now deliver it.
    /// Called with the lock held.
    @inlinable
    func accept(_ input: Output) -> Bool {
        guard state == .active, pendingCompletion == nil, demand > 0 else { return false }
        demand -= 1
        needsCurrentValue = false
        if delivering {
            queue.append(input)
            return false
        }
        delivering = true
        return true
    }

    /// Delivers `first` (already accepted), then whatever was queued meanwhile.
    @inlinable
    func run(first: Output) {
        // Only the deliverer reads `deliver` outside the lock.
        let more = deliver.unsafelyUnwrapped(.value(first))
        drain(adding: more)
    }

    /// Adds the demand a delivery returned, then delivers queued signals until there are none.
    @inlinable
    func drain(adding more: Subscribers.Demand) {
        var more = more
        while true {
            let step = core.lock.guarded { () -> Step in
                if state != .active {
                    delivering = false
                    queue = []
                    queueHead = 0
                    let released = deliver
                    deliver = nil
                    return .stop(released)
                }
                demand += more
                if queueHead < queue.count {
                    let next = queue[queueHead]
                    queueHead += 1
                    if queueHead == queue.count {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    return .value(next)
                }
                if needsCurrentValue, pendingCompletion == nil, demand > 0, let current = core.current {
                    needsCurrentValue = false
                    demand -= 1
                    return .value(current)
                }
                if let completion = pendingCompletion {
                    state = .finished
                    delivering = false
                    let released = deliver
                    deliver = nil
                    return .complete(released, completion)
                }
                delivering = false
                return .idle
            }
            switch step {
            case .value(let next):
                more = deliver.unsafelyUnwrapped(.value(next))
            case .complete(let target, let completion):
                _ = target?(.completion(completion))
                return
            case .stop, .idle:
                return
            }
        }
    }

    @usableFromInline
    enum Step {
        case value(Output)
        case complete(Deliver?, Subscribers.Completion<Failure>)
        case stop(Deliver?)
        case idle
    }

    /// Marks the conduit completed; returns the subscriber to complete now, or nil if the deliverer
    /// will (after what it has queued) or nobody should. Called with the lock held.
    @usableFromInline
    func complete(_ completion: Subscribers.Completion<Failure>) -> Deliver? {
        guard state == .active else { return nil }
        if delivering {
            pendingCompletion = completion
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
            delivering = false
            let released = deliver
            deliver = nil
            return released
        }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let (first, upstreams) = core.lock.guarded { () -> (Output?, [any Subscription]) in
            guard state == .active else { return (nil, []) }
            demand += more
            let upstreams = core.takeUpstreamsToRequest()
            guard !delivering, needsCurrentValue, pendingCompletion == nil, let current = core.current else {
                return (nil, upstreams)
            }
            needsCurrentValue = false
            demand -= 1
            delivering = true
            return (current, upstreams)
        }
        for upstream in upstreams { upstream.request(.unlimited) }
        if let first { run(first: first) }
    }

    @usableFromInline
    func cancel() {
        // The subscriber is released after the lock: its deinit may call back into the subject.
        let released = core.lock.guarded { () -> Deliver? in
            guard state == .active else { return nil }
            state = .cancelled
            core.remove(self)
            pendingCompletion = nil
            if delivering { return nil }  // the deliverer releases it when its call returns
            queue = []
            queueHead = 0
            let released = deliver
            deliver = nil
            return released
        }
        withExtendedLifetime(released) {}
    }
}
