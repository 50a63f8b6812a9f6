import Synchronization

/// The engine behind `flatMap`, `merge`, `MergeMany` and `switchToLatest`: one downstream fed by
/// many inner publishers, and (for `flatMap` and `switchToLatest`) an outer upstream that makes them.
///
/// Serialisation (C25): at most one thread at a time is the *deliverer* and calls the downstream,
/// counted by the atomic `wip` ("work in progress", as a subject's conduit does): 0 when nobody
/// delivers; whoever raises it from 0 (always under the lock) is the deliverer; anyone who finds
/// it raised leaves work under the lock (a queued value, a request for queued values, the end)
/// and raises it again, and the deliverer looks at the state again before it stops. A value that
/// arrives while another thread delivers, or without demand, waits in `queue`; the deliverer
/// drains it. No lock is held while calling out (C23). Invariant: when nobody delivers, the queue
/// is empty or there is no demand.
///
/// The common case, a value that finds nobody delivering, demand and an empty queue, takes the
/// lock once: when the downstream asks for nothing more, one atomic decrement of `wip` to 0 ends
/// the delivery (the second lock round trip per value it replaces, with what it destroyed, was
/// about a third of a `flatMap { Just($0) }` value's instructions). Lowered without the lock only
/// there; the deliverer otherwise sets it under the lock, where nobody else can raise it.
///
/// Demand (C08): with unlimited downstream demand every inner is asked for `.unlimited`; otherwise
/// each inner has one value requested or queued at a time and is asked for the next one when its
/// value is delivered, so the queue never holds more than one value per inner (Combine's policy).
///
/// Termination: finishes once the outer (if any) and every inner finished and the queue is
/// delivered; the first failure cancels everything else and is delivered at once, dropping queued
/// values (C34, C35); `cancel()` cancels everything and nothing is sent after it (C05, C18).
@usableFromInline
final class MergeEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Plain enums without payloads: a generic payload enum returned from the lock is copied
    /// through unspecialised value witnesses, which cost more than the rest of the hot path.
    @usableFromInline
    enum Status {
        case active
        /// A failure (in `pendingFailure`) arrived while another thread was delivering; that thread sends it.
        case failing
        case terminated
    }

    @usableFromInline
    struct Pending {
        /// `nil` for a fused `Just`, which has nothing to ask for more.
        @usableFromInline let inner: Inner?
        @usableFromInline let value: Output
        @inlinable init(inner: Inner?, value: Output) {
            self.inner = inner
            self.value = value
        }
    }

    @usableFromInline enum Step { case stop, value, finish, fail }

    // Every var below is guarded by `lock`, and so are the vars of each `Inner`; the lock is what
    // keeps accesses exclusive, so the runtime's exclusivity checks (a third of the cost) are off.
    @usableFromInline let lock = Lock()
    /// Written with the lock held, only by the deliverer (`wip` raised by it) or, when nobody
    /// delivers, by whoever terminates; so the deliverer reads it without the lock and calls it
    /// in place, without a retain (`deliver`).
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var status = Status.active
    @usableFromInline @exclusivity(unchecked) var pendingFailure: Failure?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// See the top: 0 idle; raised only under the lock; lowered only by the deliverer.
    @usableFromInline let wip = Atomic<Int>(0)
    @usableFromInline @exclusivity(unchecked) var queue: ContiguousArray<Pending> = []
    @usableFromInline @exclusivity(unchecked) var queueHead = 0
    @usableFromInline @exclusivity(unchecked) var inners: ContiguousArray<Inner> = []
    /// An inner that finished, kept to subscribe the next inner publisher with when nothing else
    /// references it any more: inners that finish one after another (`flatMap { [$0].publisher }`)
    /// then make no object each. Cleared by `release()` (it references this engine).
    @usableFromInline @exclusivity(unchecked) var spare: Inner?
    @usableFromInline @exclusivity(unchecked) var outer: (any Subscription)?
    /// A sink that left the release of its closures to this engine (`cancel(releasing:)`) and was
    /// cancelled while a deliverer was busy: that deliverer calls its `releaseAfterCancel()` when
    /// it lets the downstream go (`drain`). Under the lock.
    @usableFromInline @exclusivity(unchecked) var pendingRelease: (any ReleaseAfterCancel)?
    @usableFromInline @exclusivity(unchecked) var outerFinished: Bool
    @usableFromInline let maxPublishers: Subscribers.Demand
    /// `switchToLatest`: a new inner cancels the current one and drops its queued values.
    @usableFromInline let exclusive: Bool
    @usableFromInline let name: String

    /// - Parameters:
    ///   - hasOuter: `false` for `merge`: the set of inners is fixed and made with `makeInners`.
    ///   - maxPublishers: How many values to ask the outer for at first; each inner that finishes
    ///     asks for one more unless this is `.unlimited`.
    @inlinable
    init(downstream: Downstream, hasOuter: Bool, maxPublishers: Subscribers.Demand, exclusive: Bool, name: String) {
        self.downstream = downstream
        self.outerFinished = !hasOuter
        self.maxPublishers = maxPublishers
        self.exclusive = exclusive
        self.name = name
    }

    @usableFromInline var description: String { name }

    @inlinable var isActive: Bool { status == .active }

    @inlinable var queueIsEmpty: Bool { queueHead == queue.count }

    /// With the lock held: nobody delivers. `true` stays true until the caller raises `wip` (only
    /// the lock's holder raises it); `false` can go stale at once (the deliverer lowers it without
    /// the lock), so read it once and let `signal()` settle a race with a leaving deliverer.
    @inlinable var isIdle: Bool { wip.load(ordering: .acquiring) == 0 }

    /// With the lock held, after leaving work for a busy deliverer: raises `wip` so it looks at
    /// the state again. `true` if it had left meanwhile (its decrement came first): the caller is
    /// now the deliverer.
    @inlinable func signal() -> Bool { wip.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1 }

    /// With the lock held: takes the delivery when idle, or leaves the work to the deliverer;
    /// `true` if the caller is now the deliverer.
    @inlinable
    func claim() -> Bool {
        if isIdle {
            wip.store(1, ordering: .relaxed)
            return true
        }
        return signal()
    }

    // MARK: Inners

    /// Subscribes to one inner publisher on behalf of the storage.
    @usableFromInline
    final class Inner: SequenceFusionBase<Downstream.Input, Downstream.Failure>, Subscriber, CustomStringConvertible {
        @usableFromInline let storage: MergeEngine
        // Guarded by `storage.lock`.
        /// `NoSubscription()` until it arrives and once done, with `subscribed` false. Not
        /// `(any Subscription)?`: every destroy of one of those, `nil` included, goes through
        /// `Optional`'s generic value witnesses, about 60 instructions, a few times per inner.
        @usableFromInline @exclusivity(unchecked) var subscription: any Subscription = NoSubscription()
        @usableFromInline @exclusivity(unchecked) var subscribed = false
        @usableFromInline @exclusivity(unchecked) var slot = -1
        @usableFromInline @exclusivity(unchecked) var unlimited = false
        @usableFromInline @exclusivity(unchecked) var done = false

        @inlinable
        init(storage: MergeEngine) {
            self.storage = storage
            super.init()
        }

        /// Forgets the subscription (with the lock held; the caller keeps a copy if it needs one).
        @inlinable
        func dropSubscription() {
            subscription = NoSubscription()
            subscribed = false
        }

        @usableFromInline var description: String { storage.name }

        @inlinable func receive(subscription: any Subscription) { storage.innerSubscribed(self, subscription) }
        @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand { storage.innerReceive(self, input) }
        @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            storage.innerCompleted(self, completion)
        }

        @inlinable
        override func fuse<I: IteratorProtocol>(_ first: Downstream.Input, _ iterator: inout I) -> Downstream.Input?
        where I.Element == Downstream.Input {
            storage.fuseSequence(self, first, &iterator)
        }
    }

    /// A sequence's elements taken by `inner` without a subscription (`SequenceFusionBase`):
    /// each one that finds nobody delivering, demand and an empty queue goes straight down, as
    /// `scalar` sends a `Just`'s value, one lock hold each; the inner finishes when the iterator
    /// runs out. The first element that cannot go at once is returned, and the sequence subscribes
    /// the inner as usual from it, so it is queued exactly as it would have been. Observably the
    /// same as subscribing: the same values, order, demand and completion.
    @inlinable
    func fuseSequence<I: IteratorProtocol>(_ inner: Inner, _ first: Output, _ iterator: inout I) -> Output? where I.Element == Output {
        // switchToLatest asks its inner for the outstanding demand and passes requests on to it:
        // it keeps its subscriptions.
        if exclusive { return first }
        var element = first
        while true {
            let admitted = lock.guarded { () -> Bool? in
                guard isActive, !inner.done, !inner.subscribed else { return nil }
                guard isIdle, demand > 0, queueIsEmpty, downstream != nil else { return false }
                wip.store(1, ordering: .relaxed)
                demand -= 1
                return true
            }
            // Ended (cancelled or failed): a subscription would have been cancelled at once.
            guard let admitted else { return nil }
            guard admitted else { return element }
            // As a subscription does: the next element is taken before this one is sent.
            let following = iterator.next()
            // The iterator may run user code (a lazy map): a cancel or failure from inside it left
            // the delivery to this thread by raising `wip`; then nothing more goes down.
            if wip.load(ordering: .acquiring) != 1, !lock.guarded({ isActive }) {
                drain(adding: .none, direct: false)
                return nil
            }
            drain(adding: deliver(element), direct: true)
            guard let following else {
                innerCompleted(inner, .finished)
                return nil
            }
            element = following
        }
    }

    /// Registers a new inner; `nil` once terminated. In exclusive mode the previous inners are cancelled.
    @inlinable
    func makeInner() -> Inner? {
        if exclusive { return makeInnerReplacing() }
        var stale: Inner?
        let inner = lock.guarded { () -> Inner? in
            guard isActive else { return nil }
            let inner = takeSpare(stale: &stale)
            inner.slot = inners.count
            inners.append(inner)
            return inner
        }
        withExtendedLifetime(stale) {}
        return inner
    }

    /// `makeInner` for switchToLatest: the previous inners are cancelled.
    @usableFromInline
    func makeInnerReplacing() -> Inner? {
        var evicted: ContiguousArray<any Subscription> = []
        var stale: Inner?
        let inner = lock.guarded { () -> Inner? in
            guard isActive else { return nil }
            evicted = evictAll()
            let inner = takeSpare(stale: &stale)
            inner.slot = inners.count
            inners.append(inner)
            return inner
        }
        withExtendedLifetime(stale) {}
        for subscription in evicted { subscription.cancel() }
        return inner
    }

    /// With the lock held: the spare inner if only this engine references it (its last publisher
    /// let go of it, so nothing can reach it but through the engine: it is as good as new), else a
    /// new one; a spare still referenced elsewhere goes to `stale`, to be released after the lock.
    @inlinable
    func takeSpare(stale: inout Inner?) -> Inner {
        guard spare != nil else { return Inner(storage: self) }
        if isKnownUniquelyReferenced(&spare), let inner = spare.take() {
            inner.done = false
            inner.unlimited = false
            return inner
        }
        stale = spare.take()
        return Inner(storage: self)
    }

    /// With the lock held (exclusive mode): retires every inner and drops what they queued.
    @inlinable
    func evictAll() -> ContiguousArray<any Subscription> {
        var evicted: ContiguousArray<any Subscription> = []
        guard !inners.isEmpty || !queueIsEmpty else { return evicted }
        for old in inners {
            old.done = true
            old.slot = -1
            if old.subscribed { evicted.append(old.subscription) }
            old.dropSubscription()
        }
        inners.removeAll(keepingCapacity: true)
        // Only one inner is live at a time, so everything queued came from the evicted ones.
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        return evicted
    }

    /// Scalar fusion (as RxJava does for `just`): an inner `Just` is a value and an immediate
    /// finish, so its value is delivered or queued directly, without subscribing to it.
    /// Observably the same as subscribing; it saves two allocations and four lock round trips.
    @inlinable
    func scalar(_ value: Output) {
        // switchToLatest's path is apart: the evicted subscriptions it collects cost a retain
        // and a release per value even when empty.
        if exclusive { return scalarReplacing(value) }
        var mustDrain = false
        let delivering = lock.guarded { () -> Bool in
            guard isActive else { return false }
            return admitScalar(value, mustDrain: &mustDrain)
        }
        if delivering {
            drain(adding: deliver(value), direct: true)
        } else if mustDrain {
            drain(adding: .none, direct: false)
        }
    }

    /// Under the lock: a scalar value either goes straight to the downstream (`true`: this thread
    /// is the deliverer and sends it) or is queued, with `mustDrain` set when the queue needs a
    /// deliverer.
    @inlinable
    func admitScalar(_ value: Output, mustDrain: inout Bool) -> Bool {
        // One read: a deliverer may leave between two, and a value queued after the second
        // would wait with nobody to deliver it.
        let idle = isIdle
        if idle, demand > 0, queueIsEmpty, downstream != nil {
            wip.store(1, ordering: .relaxed)
            demand -= 1
            return true
        }
        queue.append(Pending(inner: nil, value: value))
        if !idle { mustDrain = signal() }
        return false
    }

    /// `scalar` for switchToLatest: the value replaces the current inner and what it queued.
    @inlinable
    func scalarReplacing(_ value: Output) {
        var evicted: ContiguousArray<any Subscription> = []
        var mustDrain = false
        let delivering = lock.guarded { () -> Bool in
            guard isActive else { return false }
            evicted = evictAll()
            return admitScalar(value, mustDrain: &mustDrain)
        }
        for subscription in evicted { subscription.cancel() }
        if delivering {
            drain(adding: deliver(value), direct: true)
        } else if mustDrain {
            drain(adding: .none, direct: false)
        }
    }

    /// Whether the outer is asked for one more publisher each time an inner finishes.
    @inlinable var refillsOuter: Bool { !maxPublishers.isUnlimited }

    /// Registers `count` inners at once, before any is subscribed, so that one finishing early
    /// cannot complete the whole merge. Empty once terminated.
    @inlinable
    func makeInners(_ count: Int) -> [Inner] {
        let made = (0..<count).map { _ in Inner(storage: self) }
        let accepted = lock.guarded { () -> Bool in
            guard isActive else { return false }
            for inner in made {
                inner.slot = inners.count
                inners.append(inner)
            }
            return true
        }
        return accepted ? made : []
    }

    /// Removes `inner` from `inners` (swap with the last). Call with the lock held.
    @inlinable
    func remove(_ inner: Inner) {
        let slot = inner.slot
        guard slot >= 0 else { return }
        let last = inners.removeLast()
        if last !== inner {
            inners[slot] = last
            last.slot = slot
        }
        inner.slot = -1
    }

    @inlinable
    func innerSubscribed(_ inner: Inner, _ subscription: any Subscription) {
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard isActive, !inner.done, !inner.subscribed else { return nil }
            inner.subscription = subscription
            inner.subscribed = true
            if demand.isUnlimited { inner.unlimited = true }
            // switchToLatest (one inner at a time) asks it for the outstanding demand, as Combine
            // does, and later passes requests on to it; the others ask one value at a time.
            if exclusive { return demand }
            return inner.unlimited ? .unlimited : .max(1)
        }
        if let ask {
            if ask > 0 { subscription.request(ask) }
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func innerReceive(_ inner: Inner, _ value: Output) -> Subscribers.Demand {
        var finite = false
        var mustDrain = false
        let delivering = lock.guarded { () -> Bool in
            guard isActive, !inner.done else { return false }
            let idle = isIdle  // one read, as in `scalar`
            if idle, demand > 0, queueIsEmpty, downstream != nil {
                wip.store(1, ordering: .relaxed)
                demand -= 1
                finite = !inner.unlimited && !exclusive
                return true
            }
            queue.append(Pending(inner: inner, value: value))
            if !idle { mustDrain = signal() }
            return false
        }
        guard delivering else {
            // The value waits in the queue; the inner is asked for its next when it is delivered.
            if mustDrain { drain(adding: .none, direct: false) }
            return .none
        }
        let more = deliver(value)
        drain(adding: more, direct: true)
        // Asking through the return value (not `request`) keeps a synchronous inner from recursing;
        // the exclusive inner gets whatever the downstream added.
        if exclusive { return inner.unlimited ? .none : more }
        return finite ? .max(1) : .none
    }

    @inlinable
    func innerCompleted(_ inner: Inner, _ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error, from: inner)
        case .finished:
            if refillsOuter { return innerFinishedRefilling(inner) }
            let target = lock.guarded { () -> Downstream? in
                guard isActive, !inner.done else { return nil }
                retire(inner)
                return finishIfComplete()
            }
            target?.receive(completion: .finished)
        }
    }

    /// `innerCompleted(.finished)` when the outer is asked for one more publisher per finished
    /// inner (kept apart: the optional it needs costs even when `nil`).
    @inlinable
    func innerFinishedRefilling(_ inner: Inner) {
        var refill: (any Subscription)?
        let target = lock.guarded { () -> Downstream? in
            guard isActive, !inner.done else { return nil }
            retire(inner)
            if !outerFinished { refill = outer }
            return finishIfComplete()
        }
        refill?.request(.max(1))
        target?.receive(completion: .finished)
    }

    /// With the lock held: `inner` finished; it may become the spare.
    @inlinable
    func retire(_ inner: Inner) {
        inner.done = true
        inner.dropSubscription()
        remove(inner)
        if spare == nil { spare = inner }
    }

    // MARK: Outer

    /// The outer upstream's subscription arrived: ask it for `maxPublishers` publishers. The
    /// downstream already has this engine as its subscription: `flatMap` and `switchToLatest`
    /// hand it over before subscribing to the upstream, as Combine does.
    @inlinable
    func outerSubscribed(_ subscription: any Subscription) {
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard isActive, outer == nil, !outerFinished else { return nil }
            outer = subscription
            return maxPublishers
        }
        guard let ask else {
            subscription.cancel()
            return
        }
        subscription.request(ask)
    }

    @inlinable
    func outerCompleted(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error, from: nil)
        case .finished:
            let target = lock.guarded { () -> Downstream? in
                guard isActive, !outerFinished else { return nil }
                outerFinished = true
                outer = nil
                return finishIfComplete()
            }
            target?.receive(completion: .finished)
        }
    }

    /// Sends `.finished` if nothing is left (merge with no inputs). Call after subscribing the inners.
    @inlinable
    func finishIfDone() {
        let target = lock.guarded { finishIfComplete() }
        target?.receive(completion: .finished)
    }

    /// With the lock held: everything finished and nothing is left to deliver.
    @inlinable var isComplete: Bool { outerFinished && inners.isEmpty && queueIsEmpty }

    /// With the lock held, from anyone but the deliverer: if everything finished, terminates and
    /// returns the downstream to send `.finished` to; while another thread delivers, leaves that to
    /// it. Terminating takes `wip` for good, so nobody delivers after it.
    @inlinable
    func finishIfComplete() -> Downstream? {
        guard isActive, isComplete else { return nil }
        guard claim() else { return nil }
        status = .terminated
        let target = downstream
        release()
        return target
    }

    /// With the lock held: drops every reference; returns the subscriptions still to cancel, the
    /// inners first and the outer last (Combine's order).
    @inlinable
    @discardableResult
    func release(except source: Inner? = nil, keepOuter: Bool = false, keepDownstream: Bool = false) -> ContiguousArray<any Subscription> {
        var cancels: ContiguousArray<any Subscription> = []
        for inner in inners {
            inner.done = true
            inner.slot = -1
            if inner !== source, inner.subscribed { cancels.append(inner.subscription) }
            inner.dropSubscription()
        }
        if !keepOuter, let outer { cancels.append(outer) }
        outer = nil
        inners.removeAll()
        // An inner's deinit only releases this engine (which the caller holds) and calls nobody.
        spare = nil
        queue.removeAll()
        queueHead = 0
        // Kept while another thread delivers (it calls the downstream in place): it is released
        // by that deliverer.
        if !keepDownstream { downstream = nil }
        return cancels
    }

    // MARK: Termination and delivery

    /// The first failure (of the outer when `source` is nil): cancel everything else, then fail.
    @inlinable
    func fail(_ error: Failure, from source: Inner?) {
        var cancels: ContiguousArray<any Subscription> = []
        let target = lock.guarded { () -> Downstream? in
            guard isActive else { return nil }
            if let source, source.done { return nil }
            if !claim() {
                // The deliverer sends the failure when it comes back; keep the downstream for it.
                cancels = release(except: source, keepOuter: source == nil, keepDownstream: true)
                status = .failing
                pendingFailure = error
                return nil
            }
            status = .terminated
            let target = downstream
            cancels = release(except: source, keepOuter: source == nil)
            return target
        }
        for subscription in cancels { subscription.cancel() }
        target?.receive(completion: .failure(error))
    }

    /// Run by the deliverer after each value: adds the value's extra demand, delivers queued
    /// values while there is demand, and sends a pending completion. `direct`: the value just
    /// delivered found the queue empty, so when the downstream asked for nothing more and nobody
    /// raised `wip` meanwhile, there is nothing to look at and one decrement ends the delivery.
    @inlinable
    func drain(adding initial: Subscribers.Demand, direct: Bool) {
        if direct, initial == .none, wip.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
        var more = initial
        // switchToLatest: demand the downstream adds while queued values drain is owed to the
        // current inner (`initial` is the caller's business). A plain local keeps this path lean.
        var owed = Subscribers.Demand.none
        var first = true
        defer { if exclusive, owed > 0 { passOnToCurrentInner(owed) } }
        while true {
            var target: Downstream?
            var delivering = false
            var value: Output?
            var refill: any Subscription = NoSubscription()
            var mustRefill = false
            var failure: Failure?
            var released: (any ReleaseAfterCancel)?
            // Under the lock nobody else raises `wip`: the deliverer sets it to what it does next.
            let step = lock.guarded { () -> Step in
                switch status {
                case .terminated:
                    // A cancel while this deliverer was busy left the downstream to it (and a
                    // sink's release, `cancel(releasing:)`); released after the lock.
                    target = downstream
                    downstream = nil
                    released = pendingRelease
                    pendingRelease = nil
                    return .stop
                case .failing:
                    status = .terminated
                    target = downstream
                    failure = pendingFailure
                    pendingFailure = nil
                    release()
                    return .fail
                case .active:
                    break
                }
                demand += more
                if demand > 0, !queueIsEmpty, downstream != nil {
                    let next = queue[queueHead]
                    queueHead += 1
                    if queueIsEmpty {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    demand -= 1
                    if !exclusive, let inner = next.inner, !inner.unlimited, !inner.done, inner.subscribed {
                        refill = inner.subscription
                        mustRefill = true
                    }
                    delivering = true
                    value = next.value
                    wip.store(1, ordering: .relaxed)
                    return .value
                }
                guard isComplete else {
                    wip.store(0, ordering: .releasing)
                    return .stop
                }
                // Terminated with `wip` raised for good.
                status = .terminated
                target = downstream
                release()
                return .finish
            }
            if !first { owed += more }
            first = false
            more = .none
            switch step {
            case .stop:
                withExtendedLifetime(target) {}
                released?.releaseAfterCancel()
                return
            case .value:
                if delivering, let value { more = deliver(value) }
                if mustRefill { refill.request(.max(1)) }
            case .finish:
                target?.receive(completion: .finished)
                return
            case .fail:
                if let failure { target?.receive(completion: .failure(failure)) }
                return
            }
        }
    }

    /// switchToLatest: asks the current inner for `more` (demand it is owed).
    @usableFromInline
    func passOnToCurrentInner(_ more: Subscribers.Demand) {
        let subscription = lock.guarded { () -> (any Subscription)? in
            guard isActive, let current = inners.first, !current.unlimited, !current.done, current.subscribed else { return nil }
            return current.subscription
        }
        subscription?.request(more)
    }

    // MARK: Subscription

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        var raise: ContiguousArray<any Subscription> = []
        var passOn: (any Subscription)?
        let start = lock.guarded { () -> Bool in
            guard isActive else { return false }
            let wasUnlimited = demand.isUnlimited
            demand += more
            if demand.isUnlimited && !wasUnlimited {
                for inner in inners where !inner.unlimited {
                    inner.unlimited = true
                    if inner.subscribed { raise.append(inner.subscription) }
                }
            } else if exclusive, let current = inners.first, !current.unlimited, !current.done, current.subscribed {
                passOn = current.subscription  // the one inner of switchToLatest gets the request as it is
            }
            if queueIsEmpty { return false }
            return claim()
        }
        for subscription in raise { subscription.request(.unlimited) }
        passOn?.request(more)
        if start { drain(adding: .none, direct: false) }
    }

    @inlinable
    func cancel() {
        var target: Downstream?
        let cancels = lock.guarded { () -> ContiguousArray<any Subscription> in
            if status == .terminated { return [] }
            status = .terminated
            pendingFailure = nil
            // Nobody delivering: the cancel takes the downstream (and `wip` stays raised for
            // good). A busy deliverer is signalled instead and releases it as it looks again.
            let mine = claim()
            if mine { target = downstream }
            return release(keepDownstream: !mine)
        }
        for subscription in cancels { subscription.cancel() }
        // The downstream is released here, after the lock.
        withExtendedLifetime(target) {}
    }

    /// `cancel()` for a sink that left the release of its closures to the engine: it calls the
    /// sink's `releaseAfterCancel()` once nothing calls the downstream and nothing will: at once
    /// when nobody delivers, else by the busy deliverer when it lets the downstream go.
    @usableFromInline
    func cancel(releasing subscriber: any ReleaseAfterCancel) {
        var target: Downstream?
        var releaseNow = false
        let cancels = lock.guarded { () -> ContiguousArray<any Subscription> in
            if status == .terminated {
                // Kept only for a busy deliverer that has not let it go yet (a cancel found it
                // busy); otherwise the engine ended by its completion, and whoever ended it sends
                // nothing more than that completion, which the cancelled sink ignores.
                if downstream != nil {
                    pendingRelease = subscriber
                } else {
                    releaseNow = true
                }
                return []
            }
            status = .terminated
            pendingFailure = nil
            let mine = claim()
            if mine {
                target = downstream
                releaseNow = true
            } else {
                pendingRelease = subscriber
            }
            return release(keepDownstream: !mine)
        }
        for subscription in cancels { subscription.cancel() }
        withExtendedLifetime(target) {}
        if releaseNow { subscriber.releaseAfterCancel() }
    }

    /// Sends `value` to the downstream, called in place. Only the deliverer, without the lock:
    /// nobody else writes `downstream` meanwhile.
    @inlinable
    @inline(__always)
    func deliver(_ value: Output) -> Subscribers.Demand {
        receiveInPlace(&downstream!, value)
    }
}

/// What a merge inner holds where it has no subscription (before it arrives, once done).
@usableFromInline
struct NoSubscription: Subscription {
    @inlinable init() {}
    @usableFromInline var combineIdentifier: CombineIdentifier { CombineIdentifier() }
    @inlinable func request(_ demand: Subscribers.Demand) {}
    @inlinable func cancel() {}
}

extension MergeEngine: ReleaseHandOffSource {}
