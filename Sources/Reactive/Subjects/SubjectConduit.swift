import Synchronization

// One subscriber's subscription to a subject (see SubjectState.swift for the whole picture).
//
// Each conduit delivers to its subscriber one signal at a time, counted by its atomic `wip`
// ("work in progress"): whoever raises it from 0 to 1 (always under the subject's lock) becomes
// the conduit's *deliverer* and calls the subscriber without the lock; anyone who raises it
// further (a value sent from another thread, or from inside the subscriber's own `receive`, C22;
// a cancel; a completion; a request owed the current value) only queues the work under the lock,
// and the deliverer does it when its call returns, lowering `wip` by one per item. So `receive` is
// never entered twice at once (C25), a re-entrant send is a trampoline, not a recursion (it
// reaches that subscriber after the call that sent it returns, and the subject's other
// subscribers at once), and the common case, a send that finds the conduit idle, takes the lock
// once: afterwards a single atomic decrement to 0 ends the delivery.

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
    @usableFromInline @exclusivity(unchecked) final var holdsSubscriber = true
    /// The conduit's position in the subject's `ConduitTable`, -1 once removed. 32 bits: with the
    /// flags above it fills one word (no subject has two billion subscribers).
    @usableFromInline @exclusivity(unchecked) final var tableIndex: Int32 = -1
    /// Calls or releases the subscriber in the subclass's slot (SubscriberSlot.swift); made where
    /// the subscriber's type is known.
    @usableFromInline final let call: SlotCall
    /// The subject itself: as in Combine, a subscription keeps its subject alive until it ends
    /// (a connection that feeds the subject does not, see `SubjectSubscriber`). Released with the
    /// subscriber, by the thread that may call it (`dropSubscriber`).
    @usableFromInline @exclusivity(unchecked) final var owner: AnyObject?
    /// A sink that left the release of its closures to this conduit (`cancel(releasing:)`) and was
    /// cancelled while a deliverer was busy: the deliverer calls its `releaseAfterCancel()` when it
    /// retires the conduit (`drainQueued`). Under the lock.
    @usableFromInline @exclusivity(unchecked) final var pendingRelease: (any ReleaseAfterCancel)?

    @usableFromInline
    init(core: SubjectCore, owner: AnyObject, call: @escaping SlotCall) {
        self.core = core
        self.owner = owner
        self.call = call
        needsCurrentValue = core.keepsCurrentValue
    }

    deinit {
        if holdsSubscriber { _ = call(self, .destroy, nil) }
    }

    @usableFromInline var description: String { core.keepsCurrentValue ? "CurrentValueSubject" : "PassthroughSubject" }

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

    /// Cancels for a sink that left the release of its closures to this conduit (see
    /// `ReleaseHandOff.swift`): `subscriber.releaseAfterCancel()` runs once nothing calls the
    /// subscriber and nothing will. At once when the conduit is idle (this thread then owns it, as
    /// a plain `cancel` does) or already retired (whoever retired it delivers nothing more: at
    /// most the completion, which the cancelled sink ignores); otherwise by the busy deliverer,
    /// when its call returns and it finds the cancel (`drainQueued`).
    @usableFromInline
    final func cancel(releasing subscriber: any ReleaseAfterCancel) {
        let (releaseNow, retired) = core.lock.guarded { () -> (Bool, SubjectConduitBase?) in
            // Out of the table: retired by its owner, which calls the subscriber no more.
            if tableIndex < 0 { return (true, nil) }
            if state == .active {
                state = .cancelled
                completionPending = false
                if takeIfIdle() { return (true, core.remove(self)) }
            }
            // Still in the table and not idle: a deliverer is busy (a cancelled conduit is only
            // left in the table when one is), and it retires the conduit after its call.
            pendingRelease = subscriber
            return (false, nil)
        }
        guard releaseNow else { return }
        // Ours (idle) or nobody's (retired): released after the lock, the subscriber first.
        if retired != nil { dropSubscriber() }
        subscriber.releaseAfterCancel()
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

/// What a send does with a value for one conduit (`SubjectConduit.admit`).
@usableFromInline
enum ConduitAdmission {
    /// Nothing: the conduit is not active, or has no demand.
    case skip
    /// Deliver it: the caller became the conduit's deliverer.
    case deliver
    /// Queue it (`enqueue`) for the busy deliverer.
    case queue
}

/// One subscriber's subscription to a subject: the typed half, which calls the subscriber. Every
/// conduit is a `NarrowConduit` or a `WideConduit`, which adds the slot that holds the subscriber
/// (SubscriberSlot.swift).
@usableFromInline
class SubjectConduit<Output, Failure: Error>: SubjectConduitBase {
    /// Values accepted while the deliverer was busy, out of line: a send finds the conduit idle
    /// far more often, and the conduit stays small (see SubscriberSlot.swift). Made at the first
    /// such value and kept.
    @usableFromInline @exclusivity(unchecked) final var queue: ConduitQueue<Output>?

    @inlinable
    init(storage: SubjectStorage<Output, Failure>, owner: AnyObject, call: @escaping SlotCall) {
        super.init(core: storage, owner: owner, call: call)
    }

    /// Hands `value` to the subscriber; only by the thread that may call it.
    @inlinable
    @inline(__always)
    final func deliver(_ value: Output) -> Subscribers.Demand {
        // Unprotected: the callee only reads the value, and a stack-protector check per value
        // would be a tenth of the path it is on.
        _withUnprotectedUnsafePointer(to: value) { call(self, .value, UnsafeRawPointer($0)) }
    }

    /// Hands `completion` to the subscriber; only by the thread that may call it.
    @inlinable
    final func deliver(completion: Subscribers.Completion<Failure>) {
        _ = withUnsafePointer(to: completion) { call(self, .completion, UnsafeRawPointer($0)) }
    }

    @inlinable
    final var storage: SubjectStorage<Output, Failure> { unsafeDowncast(core, to: SubjectStorage<Output, Failure>.self) }

    /// Takes demand for `input` if there is any; returns true if the caller must now deliver it
    /// (it became the deliverer). Called with the lock held.
    @inlinable
    @inline(__always)
    final func accept(_ input: Output) -> Bool {
        switch admit() {
        case .deliver: return true
        case .queue: enqueue(input)
        case .skip: break
        }
        return false
    }

    /// `accept` without the value: takes demand for a value if there is any, and says what to do
    /// with it. Called with the lock held. Without a value it calls nothing, so a send's walk,
    /// which calls it per conduit, needs no stack frame for it.
    @inlinable
    @inline(__always)
    final func admit() -> ConduitAdmission {
        guard state == .active, !completionPending else { return .skip }
        guard demand > 0 else {
            // A `CurrentValueSubject` keeps the value for this subscriber: it is the current value
            // its next request delivers (Combine; C11). A `PassthroughSubject` drops it.
            needsCurrentValue = core.keepsCurrentValue
            return .skip
        }
        demand -= 1
        needsCurrentValue = false
        return takeIfIdle() ? .deliver : .queue
    }

    /// Queues `input` for the busy deliverer; called with the lock held. Specialised but out of
    /// line: a send's rare path.
    @inlinable
    @inline(never)
    final func enqueue(_ input: Output) {
        if let queue {
            queue.values.append(input)
        } else {
            queue = ConduitQueue(input)
        }
    }

    /// Delivers `first` (already accepted), then whatever was queued meanwhile. Returns the
    /// conduit if this call retired it, to be released after the caller is done with it.
    @inlinable
    @inline(__always)
    final func run(first: Output) -> SubjectConduitBase? {
        // Only the deliverer calls the subscriber, and it is released by whoever may call it.
        let more = deliver(first)
        // The common end, inlined: no demand to add and nothing queued meanwhile, one decrement.
        if more == .none {
            if wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return nil }
            return drainQueued()
        }
        return drain(adding: more)
    }

    /// Ends the deliverer's current item (adding the demand it returned) and does the queued
    /// work, one item per unit of `wip`, until none is left. Returns the conduit if it retired it.
    @inlinable
    final func drain(adding more: Subscribers.Demand) -> SubjectConduitBase? {
        if more > 0 {
            core.lock.guarded {
                if state == .active { demand += more }
            }
        }
        if wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return nil }
        return drainQueued()
    }

    /// Does the queued work after the deliverer's current item has ended and found `wip` still
    /// raised (`drain`); returns the conduit if it retired it.
    @usableFromInline
    final func drainQueued() -> SubjectConduitBase? {
        var more = Subscribers.Demand.none
        while true {
            let step = core.lock.guarded { () -> Step in
                if state != .active {
                    // Cancelled: `wip` stays raised, so nobody delivers again.
                    let release = pendingRelease
                    pendingRelease = nil
                    return .stop(core.remove(self), queue?.takeAll() ?? [], release)
                }
                if let queue, let next = queue.next() { return .value(next) }
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
                more = deliver(next)
            case .complete(let retired, let completion):
                finish(completion)
                return retired
            case .stop(let retired, let dropped, let release):
                dropSubscriber()
                release?.releaseAfterCancel()
                withExtendedLifetime(dropped) {}
                return retired
            case .idle:
                more = .none
            }
            if more > 0 {
                core.lock.guarded {
                    if state == .active { demand += more }
                }
            }
            if wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return nil }
        }
    }

    @usableFromInline
    enum Step {
        case value(Output)
        case complete(SubjectConduitBase?, Subscribers.Completion<Failure>)
        /// Cancelled: the retired conduit, the values it had queued, and a sink whose release was
        /// left to this deliverer (`cancel(releasing:)`).
        case stop(SubjectConduitBase?, ContiguousArray<Output?>, (any ReleaseAfterCancel)?)
        case idle
    }

    /// Marks the conduit completed if it is idle (its caller then delivers the completion with
    /// `finish`) and returns true; if a deliverer is busy, leaves the completion to it. Called
    /// with the lock held.
    @usableFromInline
    final func complete() -> Bool {
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
    final func finish(_ completion: Subscribers.Completion<Failure>) {
        deliver(completion: completion)
        dropSubscriber()
    }

    /// Drops a conduit that was never handed out (the subject had completed).
    @usableFromInline
    final func discard() {
        core.lock.guarded { state = .finished }
        dropSubscriber()
    }

    @usableFromInline
    final override func sendCurrentValue() {
        let (first, inline) = core.lock.guarded { () -> (Output?, Bool) in
            guard state == .active, needsCurrentValue, !completionPending, demand > 0,
                let current = storage.current
            else { return (nil, false) }
            // Asked from inside `receive(subscription:)` on the thread that called it: Combine
            // delivers the current value there, before that call returns. That thread is the
            // conduit's deliverer already (`wip` is 1 for the hand-over), so nothing overlaps.
            if core.isAttachingHere(self) {
                needsCurrentValue = false
                demand -= 1
                return (current, true)
            }
            // Busy: the deliverer sends the current value when its call returns.
            guard takeIfIdle() else { return (nil, false) }
            needsCurrentValue = false
            demand -= 1
            return (current, false)
        }
        guard let first else { return }
        if inline {
            let more = deliver(first)
            if more > 0 { core.lock.guarded { if state == .active { demand += more } } }
        } else {
            let retired = run(first: first)
            withExtendedLifetime(retired) {}
        }
    }
}

/// The values a conduit accepted while its deliverer was busy, in order. A delivered slot is set
/// to nil at once, so the queue never keeps (and never frees under the lock) a value it handed out.
@usableFromInline
final class ConduitQueue<Output> {
    @usableFromInline @exclusivity(unchecked) var values: ContiguousArray<Output?>
    @usableFromInline @exclusivity(unchecked) var head = 0

    @usableFromInline
    init(_ first: Output) {
        values = [first]
    }

    /// Takes the oldest value, nil when there is none; called with the lock held.
    @usableFromInline
    func next() -> Output? {
        guard head < values.count, let next = values[head] else { return nil }
        values[head] = nil
        head += 1
        if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
        }
        return next
    }

    /// Takes every value left, for the caller to release after the lock.
    @usableFromInline
    func takeAll() -> ContiguousArray<Output?> {
        let taken = values
        values = []
        head = 0
        return taken
    }
}

/// A conduit decides by its `wip` who may call the subscriber, and never calls it from inside its
/// own calls (a send from there is queued, C22), so it keeps a relay's promise: a `Sink` behind it
/// (through `map`, `filter` and the other relays) announces no value (`ReleaseHandOff.swift`).
extension SubjectConduitBase: ReleaseHandOffSource {}
