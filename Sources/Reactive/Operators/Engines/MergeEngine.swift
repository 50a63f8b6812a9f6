/// The engine behind `flatMap`, `merge`, `MergeMany` and `switchToLatest`: one downstream fed by
/// many inner publishers, and (for `flatMap` and `switchToLatest`) an outer upstream that makes them.
///
/// Serialisation (C25): at most one thread at a time is the *deliverer* (`delivering == true`) and
/// calls the downstream. A value that arrives while another thread delivers, or without demand,
/// waits in `queue`; the deliverer drains it. No lock is held while calling out (C23). Invariant:
/// when nobody delivers, the queue is empty or there is no demand.
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
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var status = Status.active
    @usableFromInline @exclusivity(unchecked) var pendingFailure: Failure?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline @exclusivity(unchecked) var queue: ContiguousArray<Pending> = []
    @usableFromInline @exclusivity(unchecked) var queueHead = 0
    @usableFromInline @exclusivity(unchecked) var inners: ContiguousArray<Inner> = []
    @usableFromInline @exclusivity(unchecked) var outer: (any Subscription)?
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

    // MARK: Inners

    /// Subscribes to one inner publisher on behalf of the storage.
    @usableFromInline
    final class Inner: Subscriber, CustomStringConvertible {
        @usableFromInline let storage: MergeEngine
        // Guarded by `storage.lock`.
        @usableFromInline @exclusivity(unchecked) var subscription: (any Subscription)?
        @usableFromInline @exclusivity(unchecked) var slot = -1
        @usableFromInline @exclusivity(unchecked) var unlimited = false
        @usableFromInline @exclusivity(unchecked) var done = false

        @inlinable init(storage: MergeEngine) { self.storage = storage }

        @usableFromInline var description: String { storage.name }

        @inlinable func receive(subscription: any Subscription) { storage.innerSubscribed(self, subscription) }
        @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand { storage.innerReceive(self, input) }
        @inlinable func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            storage.innerCompleted(self, completion)
        }
    }

    /// Registers a new inner; `nil` once terminated. In exclusive mode the previous inners are cancelled.
    @inlinable
    func makeInner() -> Inner? {
        let inner = Inner(storage: self)
        var evicted: ContiguousArray<any Subscription> = []
        let accepted = lock.guarded { () -> Bool in
            guard isActive else { return false }
            if exclusive { evicted = evictAll() }
            inner.slot = inners.count
            inners.append(inner)
            return true
        }
        for subscription in evicted { subscription.cancel() }
        return accepted ? inner : nil
    }

    /// With the lock held (exclusive mode): retires every inner and drops what they queued.
    @inlinable
    func evictAll() -> ContiguousArray<any Subscription> {
        var evicted: ContiguousArray<any Subscription> = []
        guard !inners.isEmpty || !queueIsEmpty else { return evicted }
        for old in inners {
            old.done = true
            old.slot = -1
            if let subscription = old.subscription { evicted.append(subscription) }
            old.subscription = nil
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
        var evicted: ContiguousArray<any Subscription> = []
        let target = lock.guarded { () -> Downstream? in
            guard isActive else { return nil }
            if exclusive { evicted = evictAll() }
            if !delivering, demand > 0, queueIsEmpty, let downstream {
                delivering = true
                demand -= 1
                return downstream
            }
            queue.append(Pending(inner: nil, value: value))
            return nil
        }
        for subscription in evicted { subscription.cancel() }
        guard let target else { return }
        drain(adding: target.receive(value))
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
            guard isActive, !inner.done, inner.subscription == nil else { return nil }
            inner.subscription = subscription
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
        let target = lock.guarded { () -> Downstream? in
            guard isActive, !inner.done else { return nil }
            if !delivering, demand > 0, queueIsEmpty, let downstream {
                delivering = true
                demand -= 1
                finite = !inner.unlimited && !exclusive
                return downstream
            }
            queue.append(Pending(inner: inner, value: value))
            return nil
        }
        guard let target else { return .none }
        let more = target.receive(value)
        drain(adding: more)
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
            var refill: (any Subscription)?
            let target = lock.guarded { () -> Downstream? in
                guard isActive, !inner.done else { return nil }
                inner.done = true
                inner.subscription = nil
                remove(inner)
                if !outerFinished && !maxPublishers.isUnlimited { refill = outer }
                return takeDownstreamIfComplete()
            }
            refill?.request(.max(1))
            target?.receive(completion: .finished)
        }
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
                return takeDownstreamIfComplete()
            }
            target?.receive(completion: .finished)
        }
    }

    /// Sends `.finished` if nothing is left (merge with no inputs). Call after subscribing the inners.
    @inlinable
    func finishIfDone() {
        let target = lock.guarded { takeDownstreamIfComplete() }
        target?.receive(completion: .finished)
    }

    /// With the lock held: if everything finished and nobody delivers, terminates and returns the
    /// downstream to send `.finished` to.
    @inlinable
    func takeDownstreamIfComplete() -> Downstream? {
        guard isActive, !delivering, outerFinished, inners.isEmpty, queueIsEmpty else { return nil }
        status = .terminated
        let target = downstream
        release()
        return target
    }

    /// With the lock held: drops every reference; returns the subscriptions still to cancel, the
    /// inners first and the outer last (Combine's order).
    @inlinable
    @discardableResult
    func release(except source: Inner? = nil, keepOuter: Bool = false) -> ContiguousArray<any Subscription> {
        var cancels: ContiguousArray<any Subscription> = []
        for inner in inners {
            inner.done = true
            inner.slot = -1
            if inner !== source, let subscription = inner.subscription { cancels.append(subscription) }
            inner.subscription = nil
        }
        if !keepOuter, let outer { cancels.append(outer) }
        outer = nil
        inners.removeAll()
        queue.removeAll()
        queueHead = 0
        downstream = nil
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
            if delivering {
                // The deliverer sends the failure when it comes back; keep the downstream for it.
                let kept = downstream
                cancels = release(except: source, keepOuter: source == nil)
                downstream = kept
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
    /// values while there is demand, and sends a pending completion.
    @inlinable
    func drain(adding initial: Subscribers.Demand) {
        var more = initial
        // switchToLatest: demand the downstream adds while queued values drain is owed to the
        // current inner (`initial` is the caller's business). A plain local keeps this path lean.
        var owed = Subscribers.Demand.none
        var first = true
        defer { if exclusive, owed > 0 { passOnToCurrentInner(owed) } }
        while true {
            var target: Downstream?
            var value: Output?
            var refill: (any Subscription)?
            var failure: Failure?
            let step = lock.guarded { () -> Step in
                switch status {
                case .terminated:
                    delivering = false
                    return .stop
                case .failing:
                    status = .terminated
                    delivering = false
                    target = downstream
                    failure = pendingFailure
                    pendingFailure = nil
                    release()
                    return .fail
                case .active:
                    break
                }
                demand += more
                if demand > 0, !queueIsEmpty, let downstream {
                    let next = queue[queueHead]
                    queueHead += 1
                    if queueIsEmpty {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    demand -= 1
                    if !exclusive, let inner = next.inner, !inner.unlimited, !inner.done { refill = inner.subscription }
                    target = downstream
                    value = next.value
                    return .value
                }
                delivering = false
                target = takeDownstreamIfComplete()
                return target == nil ? .stop : .finish
            }
            if !first { owed += more }
            first = false
            more = .none
            switch step {
            case .stop:
                return
            case .value:
                if let target, let value { more = target.receive(value) }
                refill?.request(.max(1))
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
            guard isActive, let current = inners.first, !current.unlimited, !current.done else { return nil }
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
                    if let subscription = inner.subscription { raise.append(subscription) }
                }
            } else if exclusive, let current = inners.first, !current.unlimited, !current.done,
                let subscription = current.subscription
            {
                passOn = subscription  // the one inner of switchToLatest gets the request as it is
            }
            if delivering || queueIsEmpty { return false }
            delivering = true
            return true
        }
        for subscription in raise { subscription.request(.unlimited) }
        passOn?.request(more)
        if start { drain(adding: .none) }
    }

    @inlinable
    func cancel() {
        let cancels = lock.guarded { () -> ContiguousArray<any Subscription> in
            if status == .terminated { return [] }
            status = .terminated
            pendingFailure = nil
            return release()
        }
        for subscription in cancels { subscription.cancel() }
    }
}
