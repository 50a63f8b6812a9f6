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
//
// Lifetimes, which the send path relies on to deliver without retaining anything:
// - A conduit stays in the subject's `conduits` until the thread that owns it retires it: a cancel
//   or completion that finds it idle (and raises `wip` for good), or else its deliverer, when it
//   sees the cancel or delivers the pending completion. So a sender that became a conduit's
//   deliverer under the lock may use it unretained: the array keeps it alive until the sender
//   itself retires it, and the retired reference is handed back to be released after the call.
// - The subscriber lives in the conduit's `slot` and is called through closures that capture
//   nothing, made in `attach` where its type is known. An object (a `Sink`) is kept as a reference
//   retained by hand and called without a retain; a struct (an operator's subscriber around a
//   sink) is kept in place when it fits in four words, so subscribing allocates nothing more, and
//   a larger one in a `SubscriberBox`. Only the thread that may call the subscriber (the
//   deliverer, or whoever raised `wip` from 0 for good) releases it, so a value in flight never
//   meets a released subscriber.

/// The part of a subject's state that does not depend on its types, all under `lock`. Keeping it
/// (and `SubjectConduitBase`) non-generic makes `request` and `cancel`, which arrive through
/// `any Subscription` and so are never specialised, cheap: no generic metadata lookups.
@usableFromInline
class SubjectCore {
    @usableFromInline final let lock = Lock()
    @usableFromInline @exclusivity(unchecked) final var conduits: ContiguousArray<SubjectConduitBase> = []
    @usableFromInline @exclusivity(unchecked) final var isCompleted = false
    @usableFromInline final let keepsCurrentValue: Bool
    @usableFromInline @exclusivity(unchecked) final var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for values: from then on upstreams are asked for `.unlimited`.
    @usableFromInline @exclusivity(unchecked) final var upstreamRequested = false

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

    /// Removes `conduit` and returns it, for the caller to release after the lock (its deinit may
    /// call back into the subject); called with the lock held.
    @usableFromInline
    final func remove(_ conduit: SubjectConduitBase) -> SubjectConduitBase? {
        for index in conduits.indices where conduits[index] === conduit {
            return conduits.remove(at: index)
        }
        return nil
    }

    /// Upstreams to ask for `.unlimited` now that a subscriber has demand (nil when they already
    /// were); called with the lock held.
    @usableFromInline
    final func takeUpstreamsToRequest() -> [any Subscription]? {
        if upstreamRequested { return nil }
        upstreamRequested = true
        return upstreams.isEmpty ? nil : upstreams
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
        case all(ContiguousArray<SubjectConduitBase>)
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
                // Unretained from the start: the array keeps it alive (a retain here is a tenth of the cost).
                let conduit = Unmanaged.passUnretained(unsafeDowncast(conduits[0], to: SubjectConduit<Output, Failure>.self))
                return conduit._withUnsafeGuaranteedRef { $0.accept(input) } ? .one(conduit) : .none
            default:
                return .all(conduits)
            }
        }
        switch plan {
        case .none:
            return
        case .one(let conduit):
            let retired = conduit._withUnsafeGuaranteedRef { $0.run(first: input) }
            withExtendedLifetime(retired) {}
        case .all(let all):
            for base in all {
                let conduit = unsafeDowncast(base, to: SubjectConduit<Output, Failure>.self)
                if lock.guarded({ conduit.accept(input) }) { _ = conduit.run(first: input) }
            }
        }
    }

    /// Completes every conduit; later sends and subscribers see the stored completion.
    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        // What the lock gives up is released after it: a subscriber's deinit may call back in.
        let (ready, upstreamsReleased) = lock.guarded {
            () -> ([SubjectConduit<Output, Failure>], [any Subscription]) in
            guard !isCompleted else { return ([], []) }
            isCompleted = true
            self.completion = completion
            let ups = upstreams
            upstreams = []
            var ready: [SubjectConduit<Output, Failure>] = []
            var busy: ContiguousArray<SubjectConduitBase> = []
            for base in conduits {
                let conduit = unsafeDowncast(base, to: SubjectConduit<Output, Failure>.self)
                if conduit.complete() {
                    ready.append(conduit)
                } else {
                    // Busy (an idle conduit is never left in the list after a cancel): its
                    // deliverer completes or drops it, and retires it.
                    busy.append(conduit)
                }
            }
            conduits = busy
            return (ready, ups)
        }
        for conduit in ready { conduit.finish(completion) }
        withExtendedLifetime(upstreamsReleased) {}
    }

    /// Attaches a subscriber through a new conduit (or, once completed, gives it the completion).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit<Output, Failure>(storage: self, subscriber: subscriber)
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
        let retired = conduit.drain(adding: .none)
        withExtendedLifetime(retired) {}
    }
}

/// Room for a subscriber inside its conduit: four words, enough for an operator's subscriber
/// around a sink (a downstream reference, a closure and an identifier).
@usableFromInline
typealias SubscriberSlot = (UInt, UInt, UInt, UInt)

/// Holds a subscriber too large for a `SubscriberSlot`, as a `let`, so calling it needs no retain.
@usableFromInline
final class SubscriberBox<S> {
    @usableFromInline let subscriber: S
    @inlinable init(_ subscriber: S) { self.subscriber = subscriber }
}

/// One subscriber's subscription to a subject: the untyped half. Its state is guarded by the
/// subject's lock, except `slot`, which belongs to whoever may call the subscriber (see the top).
@usableFromInline
class SubjectConduitBase: Subscription, CustomStringConvertible {
    @usableFromInline final let core: SubjectCore
    @usableFromInline @exclusivity(unchecked) final var demand = Subscribers.Demand.none
    /// Work in progress: 1 while one thread (the deliverer) may call the subscriber, plus one per
    /// item of work queued for it. It starts at 1: the subscriber is being handed its subscription.
    /// Raised only under the lock; lowered only by the deliverer.
    @usableFromInline final let wip = Atomic<Int>(1)
    @usableFromInline @exclusivity(unchecked) final var state = ConduitState.active
    /// The subject completed while a delivery was in progress: the deliverer sends the completion.
    @usableFromInline @exclusivity(unchecked) final var completionPending = false
    /// A `CurrentValueSubject` subscriber still owed the current value (sent at its first demand).
    @usableFromInline @exclusivity(unchecked) final var needsCurrentValue: Bool
    /// The subscriber (see the top) while `holdsSubscriber`.
    @usableFromInline @exclusivity(unchecked) final var slot: SubscriberSlot = (0, 0, 0, 0)
    @usableFromInline @exclusivity(unchecked) final var holdsSubscriber = true
    /// Releases what `slot` holds; made where the subscriber's type is known.
    @usableFromInline final let destroySubscriber: (SubjectConduitBase) -> Void

    @usableFromInline
    init(core: SubjectCore, destroySubscriber: @escaping (SubjectConduitBase) -> Void) {
        self.core = core
        self.destroySubscriber = destroySubscriber
        needsCurrentValue = core.keepsCurrentValue
    }

    deinit {
        if holdsSubscriber { destroySubscriber(self) }
    }

    /// The object kept in the first word of `slot`.
    @inlinable
    final var slotObject: Unmanaged<AnyObject> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: slot.0).unsafelyUnwrapped)
    }

    /// Calls `body` with the address of `slot`.
    @inlinable
    final func withSlot<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeMutableBytes(of: &slot) { body($0.baseAddress.unsafelyUnwrapped) }
    }

    @usableFromInline var description: String { core.keepsCurrentValue ? "CurrentValueSubject" : "PassthroughSubject" }

    /// Releases the subscriber; only the thread that may call it does this, without the lock.
    @usableFromInline
    final func dropSubscriber() {
        guard holdsSubscriber else { return }
        holdsSubscriber = false
        destroySubscriber(self)
    }

    @usableFromInline
    final func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let (upstreams, owesValue) = core.lock.guarded { () -> ([any Subscription]?, Bool) in
            guard state == .active else { return (nil, false) }
            demand += more
            return (core.takeUpstreamsToRequest(), needsCurrentValue)
        }
        if let upstreams {
            for upstream in upstreams { upstream.request(.unlimited) }
        }
        if owesValue { sendCurrentValue() }
    }

    @usableFromInline
    final func cancel() {
        let (release, retired) = core.lock.guarded { () -> (Bool, SubjectConduitBase?) in
            guard state == .active else { return (false, nil) }
            state = .cancelled
            completionPending = false
            // Whoever takes the conduit from idle owns it from now on; it is never lowered again,
            // so nobody delivers after this. If a deliverer is busy, it retires the conduit and
            // releases the subscriber when its call returns.
            guard takeIfIdle() else { return (false, nil) }
            return (true, core.remove(self))
        }
        // Cancelled and idle: nobody else touches the subscriber any more, so it is released
        // here, after the lock (its deinit may call back into the subject).
        if release { dropSubscriber() }
        withExtendedLifetime(retired) {}
    }

    /// Raises `wip` and reports whether the conduit was idle (the caller then owns it); called
    /// with the lock held. Idle, nobody else can change `wip` (raising it takes the lock, and only
    /// a deliverer lowers it), so a plain store does; busy, the increment decides, since the
    /// deliverer may have left since the load. The acquiring load pairs with the last
    /// deliverer's final decrement.
    @inlinable
    final func takeIfIdle() -> Bool {
        if wip.load(ordering: .acquiring) == 0 {
            wip.store(1, ordering: .relaxed)
            return true
        }
        return wip.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1
    }

    /// Delivers the current value of a `CurrentValueSubject` if it is still owed.
    @usableFromInline
    func sendCurrentValue() {}
}

@usableFromInline
enum ConduitState { case active, cancelled, finished }

/// One subscriber's subscription to a subject: the typed half, which calls the subscriber.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: SubjectConduitBase {
    /// Call the subscriber in `slot`; closures that capture nothing, made in `init`.
    @usableFromInline let receiveValue: (SubjectConduitBase, Output) -> Subscribers.Demand
    @usableFromInline let receiveCompletion: (SubjectConduitBase, Subscribers.Completion<Failure>) -> Void
    /// Values accepted while the deliverer was busy. A delivered slot is set to nil at once, so
    /// the queue never keeps (and never frees under the lock) a value it handed out.
    @usableFromInline @exclusivity(unchecked) var queue: ContiguousArray<Output?> = []
    @usableFromInline @exclusivity(unchecked) var queueHead = 0

    @inlinable
    init<S: Subscriber>(storage: SubjectStorage<Output, Failure>, subscriber: S) where S.Input == Output, S.Failure == Failure {
        if S.self is AnyObject.Type {
            // An object: its reference, retained by hand. `_unsafeReferenceCast` keeps the
            // reference borrowed (a generic `unsafeBitCast` would retain it for the call).
            receiveValue = { conduit, value in
                conduit.slotObject._withUnsafeGuaranteedRef { _unsafeReferenceCast($0, to: S.self).receive(value) }
            }
            receiveCompletion = { conduit, completion in
                conduit.slotObject._withUnsafeGuaranteedRef { _unsafeReferenceCast($0, to: S.self).receive(completion: completion) }
            }
            super.init(core: storage, destroySubscriber: { $0.slotObject.release() })
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(subscriber as AnyObject).toOpaque())
        } else if MemoryLayout<S>.size <= MemoryLayout<SubscriberSlot>.size,
            MemoryLayout<S>.alignment <= MemoryLayout<SubscriberSlot>.alignment
        {
            // A small struct, in place.
            receiveValue = { conduit, value in
                conduit.withSlot { $0.assumingMemoryBound(to: S.self).pointee.receive(value) }
            }
            receiveCompletion = { conduit, completion in
                conduit.withSlot { $0.assumingMemoryBound(to: S.self).pointee.receive(completion: completion) }
            }
            super.init(core: storage, destroySubscriber: { conduit in
                conduit.withSlot { _ = $0.assumingMemoryBound(to: S.self).deinitialize(count: 1) }
            })
            withSlot { _ = $0.initializeMemory(as: S.self, repeating: subscriber, count: 1) }
        } else {
            // A larger struct, boxed.
            typealias Box = SubscriberBox<S>
            receiveValue = { conduit, value in
                Unmanaged<Box>.fromOpaque(conduit.slotObject.toOpaque())._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
            }
            receiveCompletion = { conduit, completion in
                Unmanaged<Box>.fromOpaque(conduit.slotObject.toOpaque())._withUnsafeGuaranteedRef {
                    $0.subscriber.receive(completion: completion)
                }
            }
            super.init(core: storage, destroySubscriber: { $0.slotObject.release() })
            slot.0 = UInt(bitPattern: Unmanaged.passRetained(Box(subscriber)).toOpaque())
        }
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
        if takeIfIdle() { return true }
        queue.append(input)
        return false
    }

    /// Delivers `first` (already accepted), then whatever was queued meanwhile. Returns the
    /// conduit if this call retired it, to be released after the caller is done with it.
    @inlinable
    func run(first: Output) -> SubjectConduitBase? {
        // Only the deliverer calls the subscriber, and it is released by whoever may call it.
        let more = receiveValue(self, first)
        return drain(adding: more)
    }

    /// Ends the deliverer's current item (adding the demand it returned) and does the queued
    /// work, one item per unit of `wip`, until none is left. Returns the conduit if it retired it.
    @inlinable
    func drain(adding more: Subscribers.Demand) -> SubjectConduitBase? {
        var more = more
        while true {
            if more > 0 {
                core.lock.guarded {
                    if state == .active { demand += more }
                }
            }
            if wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return nil }
            let step = core.lock.guarded { () -> Step in
                if state != .active {
                    // Cancelled: `wip` stays raised, so nobody delivers again.
                    let dropped = queue
                    queue = []
                    queueHead = 0
                    return .stop(core.remove(self), dropped)
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
                    return .complete(core.remove(self), completion)
                }
                return .idle
            }
            switch step {
            case .value(let next):
                more = receiveValue(self, next)
            case .complete(let retired, let completion):
                finish(completion)
                return retired
            case .stop(let retired, let dropped):
                dropSubscriber()
                withExtendedLifetime(dropped) {}
                return retired
            case .idle:
                more = .none
            }
        }
    }

    @usableFromInline
    enum Step {
        case value(Output)
        case complete(SubjectConduitBase?, Subscribers.Completion<Failure>)
        case stop(SubjectConduitBase?, ContiguousArray<Output?>)
        case idle
    }

    /// Marks the conduit completed if it is idle (its caller then delivers the completion with
    /// `finish`) and returns true; if a deliverer is busy, leaves the completion to it. Called
    /// with the lock held.
    @usableFromInline
    func complete() -> Bool {
        guard state == .active else { return false }
        if !takeIfIdle() {
            completionPending = true  // the deliverer completes after what it has queued
            return false
        }
        state = .finished
        return true
    }

    /// Delivers the completion and releases the subscriber; by the only thread that may call it.
    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        receiveCompletion(self, completion)
        dropSubscriber()
    }

    /// Drops a conduit that was never handed out (the subject had completed).
    @usableFromInline
    func discard() {
        core.lock.guarded { state = .finished }
        dropSubscriber()
    }

    @usableFromInline
    override func sendCurrentValue() {
        let first = core.lock.guarded { () -> Output? in
            guard state == .active, needsCurrentValue, !completionPending, demand > 0,
                let current = storage.current
            else { return nil }
            // Busy: the deliverer sends the current value when its call returns.
            guard takeIfIdle() else { return nil }
            needsCurrentValue = false
            demand -= 1
            return current
        }
        if let first {
            let retired = run(first: first)
            withExtendedLifetime(retired) {}
        }
    }
}
