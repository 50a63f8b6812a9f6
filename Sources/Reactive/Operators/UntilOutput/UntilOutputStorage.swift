/// The engine behind `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`: the upstream's
/// values flow to the downstream, gated by the first value of a second publisher (the trigger).
///
/// The trigger may fire on another thread while an upstream value is being delivered; the
/// `delivering` flag defers the resulting completion to that delivering thread, so signals to the
/// downstream never overlap (C25) and nothing is sent after it (C02).
@usableFromInline
final class UntilOutputStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline enum Mode { case prefix, drop }
    @usableFromInline enum Status { case active, completing, terminated }

    @usableFromInline let lock = Lock()
    @usableFromInline let mode: Mode
    // Guarded by `lock`; the lock keeps accesses exclusive, so runtime exclusivity checks are off.
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var status = Status.active
    /// The completion a `.completing` storage sends once the current delivery returns.
    @usableFromInline @exclusivity(unchecked) var pending: Subscribers.Completion<Failure>?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline @exclusivity(unchecked) var triggered = false
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var other: (any Subscription)?

    @inlinable
    init(downstream: Downstream, mode: Mode) {
        self.downstream = downstream
        self.mode = mode
    }

    @usableFromInline var description: String { mode == .prefix ? "PrefixUntilOutput" : "DropUntilOutput" }

    @inlinable var isLive: Bool { lock.guarded { status == .active } }

    /// Ends everything with `completion` (deferred to the delivering thread if there is one).
    /// Cancels the subscriptions other than the one that completed.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>, cancelUpstream: Bool, cancelOther: Bool) {
        var cancels: [any Subscription] = []
        let target = lock.guarded { () -> Downstream? in
            guard status == .active else { return nil }
            if cancelUpstream, let upstream { cancels.append(upstream) }
            if cancelOther, let other { cancels.append(other) }
            upstream = nil
            other = nil
            if delivering {
                status = .completing
                pending = completion
                return nil
            }
            status = .terminated
            let target = downstream
            downstream = nil
            return target
        }
        for subscription in cancels { subscription.cancel() }
        target?.receive(completion: completion)
    }

    // MARK: Upstream

    @inlinable
    func upstreamSubscribed(_ subscription: any Subscription) {
        let ask = lock.guarded { () -> Subscribers.Demand? in
            guard status == .active, upstream == nil else { return nil }
            upstream = subscription
            return demand
        }
        guard let ask else {
            subscription.cancel()
            return
        }
        // prefix: the subscriber gets its subscription now (Combine); its requests from inside
        // `receive(subscription:)` go straight to upstream, which is already set.
        if mode == .prefix, let target = lock.guarded({ downstream }) { target.receive(subscription: self) }
        if ask > 0 { subscription.request(ask) }
    }

    @inlinable
    func upstreamReceive(_ value: Output) -> Subscribers.Demand {
        var dropped = false
        let target = lock.guarded { () -> Downstream? in
            guard status == .active, let downstream else { return nil }
            if mode == .drop && !triggered {
                dropped = true
                return nil
            }
            delivering = true
            demand -= 1
            return downstream
        }
        // A dropped value asks upstream for a replacement, so the downstream's demand is kept.
        if dropped { return .max(1) }
        guard let target else { return .none }
        let more = target.receive(value)
        var completion: Subscribers.Completion<Failure>?
        let finisher = lock.guarded { () -> Downstream? in
            delivering = false
            switch status {
            case .active:
                demand += more
                return nil
            case .completing:
                status = .terminated
                completion = pending
                pending = nil
                let target = downstream
                downstream = nil
                return target
            case .terminated:
                return nil
            }
        }
        if let finisher, let completion {
            finisher.receive(completion: completion)
            return .none
        }
        return more
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) {
        // prefix: a completion before upstream's subscription is misuse, and the subscriber has no
        // subscription yet: it is ignored (the trigger is cancelled), as Combine does.
        if mode == .prefix, lock.guarded({ status == .active && upstream == nil }) {
            cancel()
            return
        }
        complete(completion, cancelUpstream: false, cancelOther: true)
    }

    // MARK: Trigger

    @inlinable
    func otherSubscribed(_ subscription: any Subscription) {
        let accepted = lock.guarded { () -> Bool in
            guard status == .active, other == nil, !triggered else { return false }
            other = subscription
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func otherReceive() {
        switch mode {
        case .prefix:
            complete(.finished, cancelUpstream: true, cancelOther: true)
        case .drop:
            let subscription = lock.guarded { () -> (any Subscription)? in
                guard status == .active, !triggered else { return nil }
                triggered = true
                let subscription = other
                other = nil
                return subscription
            }
            subscription?.cancel()
        }
    }

    /// The trigger finished or failed. In prefix mode it changes nothing (values keep flowing). In
    /// drop mode, before its first value, it ends the output, as in Combine: a failure fails it
    /// and `.finished` finishes it, since no value could ever pass.
    @inlinable
    func otherCompleted(failure: Failure?) {
        let ends = lock.guarded { () -> Bool in
            other = nil
            return mode == .drop && !triggered
        }
        guard ends else { return }
        complete(failure.map { .failure($0) } ?? .finished, cancelUpstream: true, cancelOther: false)
    }

    // MARK: Subscription

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let subscription = lock.guarded { () -> (any Subscription)? in
            guard status == .active else { return nil }
            demand += more
            return upstream
        }
        subscription?.request(more)
    }

    @inlinable
    func cancel() {
        var cancels: [any Subscription] = []
        lock.guarded {
            guard status != .terminated else { return }
            status = .terminated
            if let upstream { cancels.append(upstream) }
            if let other { cancels.append(other) }
            upstream = nil
            other = nil
            downstream = nil
            pending = nil
        }
        for subscription in cancels { subscription.cancel() }
    }

    /// Subscribes to the upstream.
    @usableFromInline
    struct UpstreamLink: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Output
        @usableFromInline let storage: UntilOutputStorage
        @usableFromInline let combineIdentifier = CombineIdentifier()
        @inlinable init(storage: UntilOutputStorage) { self.storage = storage }
        @usableFromInline var description: String { storage.description }
        @inlinable func receive(subscription: any Subscription) { storage.upstreamSubscribed(subscription) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand { storage.upstreamReceive(input) }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.upstreamCompleted(completion) }
    }

    /// Subscribes to the trigger; any output and failure types.
    @usableFromInline
    struct TriggerLink<Input, Failure: Error>: Subscriber, CustomStringConvertible {
        @usableFromInline let storage: UntilOutputStorage
        @usableFromInline let combineIdentifier = CombineIdentifier()
        @inlinable init(storage: UntilOutputStorage) { self.storage = storage }
        @usableFromInline var description: String { storage.description }
        @inlinable func receive(subscription: any Subscription) { storage.otherSubscribed(subscription) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand {
            storage.otherReceive()
            return .none
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            if case .failure(let error) = completion, let failure = error as? Downstream.Failure {
                storage.otherCompleted(failure: failure)
            } else {
                storage.otherCompleted(failure: nil)
            }
        }
    }
}
