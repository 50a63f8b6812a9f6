/// The engine behind operators that subscribe to one upstream after another — `append`/`prepend`
/// (`Concatenate`), `catch`, `tryCatch` and `retry` — while the downstream sees one subscription.
///
/// Each upstream subscription is a *phase* with its own `generation`; signals from an older phase
/// are ignored. The downstream's outstanding demand is tracked here, so a new phase is asked for
/// exactly what is still owed (C37, C38). Subclasses decide what a phase's completion means by
/// overriding `phaseCompleted`. Only one phase is live at a time, so values never overlap.
@usableFromInline
class RelayEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    // Guarded by `lock`; the lock keeps accesses exclusive, so runtime exclusivity checks are off.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var current: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var generation = 0
    @usableFromInline @exclusivity(unchecked) var terminated = false
    /// `retry`: the downstream gets this engine as its subscription only when the first phase's
    /// subscription arrives (Combine subscribes upstream first); the others hand it over at once.
    @usableFromInline @exclusivity(unchecked) var downstreamNeedsSubscription = false
    @usableFromInline let name: String
    /// `retry`: the demand the downstream adds while receiving a value goes to the live phase as
    /// a `request`, and `receive` returns `.none` (Combine's retry); the others return it.
    @usableFromInline let requestsAddedDemand: Bool

    @inlinable
    init(downstream: Downstream, name: String, requestsAddedDemand: Bool = false) {
        self.downstream = downstream
        self.name = name
        self.requestsAddedDemand = requestsAddedDemand
    }

    @usableFromInline var description: String { name }

    /// A phase's subscription arrived: keep it (handing this engine downstream first, if it has
    /// not been yet) and ask it for everything still owed.
    @inlinable
    final func attach(_ subscription: any Subscription, generation phase: Int) {
        var introduce: Downstream?
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard !terminated, phase == generation, current == nil else { return nil }
            current = subscription
            if downstreamNeedsSubscription {
                downstreamNeedsSubscription = false
                introduce = downstream
            }
            return demand
        }
        guard let ask else {
            subscription.cancel()
            return
        }
        // The downstream's first request reaches `subscription` through `request`; `ask` is
        // what was owed before (nothing, when the downstream is only now introduced).
        introduce?.receive(subscription: self)
        if ask > 0 { subscription.request(ask) }
    }

    /// A phase's value: pass it on if that phase is still the live one.
    @inlinable
    final func relay(_ value: Output, generation phase: Int) -> Subscribers.Demand {
        let target = lock.guarded { () -> Downstream? in
            guard !terminated, phase == generation, !downstreamNeedsSubscription, let downstream else { return nil }
            demand -= 1
            return downstream
        }
        guard let target else { return .none }
        let more = target.receive(value)
        guard more > 0 else { return .none }
        guard requestsAddedDemand else {
            lock.guarded { if !terminated { demand += more } }
            return more
        }
        let live = lock.guarded { () -> (any Subscription)? in
            guard !terminated else { return nil }
            demand += more
            return phase == generation ? current : nil
        }
        // A synchronous source takes a request from inside its own delivery without recursing (C20).
        live?.request(more)
        return .none
    }

    /// Ends the whole relay with `completion`, if `phase` (nil: any) is still live.
    @inlinable
    final func terminate(_ completion: Subscribers.Completion<Failure>, generation phase: Int?) {
        var introduce = false
        let (target, kept) = lock.guarded { () -> (Downstream?, Any?) in
            guard !terminated, phase == nil || phase == generation else { return (nil, nil) }
            terminated = true
            current = nil
            introduce = downstreamNeedsSubscription
            downstreamNeedsSubscription = false
            return (downstream.take(), takeKept())
        }
        withExtendedLifetime(kept) {}  // released after the lock: user objects (C23)
        // An upstream that completed without a subscription (C07 misuse): still C01 downstream.
        if introduce { target?.receive(subscription: self) }
        target?.receive(completion: completion)
    }

    /// Takes what a subclass keeps only to start a later phase (a suffix publisher, a handler), so
    /// the relay's end releases it (C16); called with the lock held, released by the caller after.
    @inlinable
    func takeKept() -> Any? { nil }

    /// Ends `phase` to start the next one; returns the next generation, or nil if `phase` is stale
    /// or the relay terminated.
    @inlinable
    final func endPhase(_ phase: Int) -> Int? {
        lock.guarded { () -> Int? in
            guard !terminated, phase == generation else { return nil }
            generation += 1
            current = nil
            return generation
        }
    }

    /// What a phase's completion means; the default ends the relay with it.
    @inlinable
    func phaseCompleted(_ completion: Subscribers.Completion<Failure>, generation phase: Int) {
        terminate(completion, generation: phase)
    }

    @inlinable
    final func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let subscription = lock.guarded { () -> (any Subscription)? in
            guard !terminated else { return nil }
            demand += more
            return current
        }
        subscription?.request(more)
    }

    @inlinable
    final func cancel() {
        // Everything is released after the lock: the downstream and what was kept are user objects.
        let (subscription, released) = lock.guarded { () -> ((any Subscription)?, (Downstream?, Any?)) in
            guard !terminated else { return (nil, (nil, nil)) }
            terminated = true
            return (current.take(), (downstream.take(), takeKept()))
        }
        subscription?.cancel()
        withExtendedLifetime(released) {}
    }
}

/// Subscribes one phase of a `RelayEngine` whose failure type is the downstream's.
@usableFromInline
struct RelayLink<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let storage: RelayEngine<Downstream>
    @usableFromInline let generation: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(storage: RelayEngine<Downstream>, generation: Int) {
        self.storage = storage
        self.generation = generation
    }

    @usableFromInline var description: String { storage.name }

    @inlinable func receive(subscription: any Subscription) { storage.attach(subscription, generation: generation) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { storage.relay(input, generation: generation) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        storage.phaseCompleted(completion, generation: generation)
    }
}
