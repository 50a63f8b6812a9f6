/// Callbacks for each event that passes through a stage; `handleEvents` and `print` fill them.
@usableFromInline
struct EventHooks<Output, Failure: Error> {
    @usableFromInline var receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline var receiveOutput: ((Output) -> Void)?
    @usableFromInline var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline var receiveCancel: (() -> Void)?
    /// The flag is `true` for demand returned from `receive(_:)` rather than requested.
    @usableFromInline var receiveRequest: ((Subscribers.Demand, _ synchronous: Bool) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand, Bool) -> Void)? = nil
    ) {
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
        self.receiveCancel = receiveCancel
        self.receiveRequest = receiveRequest
    }
}

/// A wrapping subscription that calls a hook for every event and forwards it unchanged.
///
/// Every hook runs once per event, before the event is forwarded, without the lock held (C23).
/// After a completion or a cancel the hooks are dropped, so `receiveCancel` runs at most once and
/// never after a completion (C40), and what the hooks captured is freed (C16, C17). As with
/// `StepEngine`, a value already past its status check on another thread when a cancel
/// happens may still be delivered (C15); nothing starts after the cancel.
@usableFromInline
final class EventSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline enum Status { case awaitingSubscription, subscribed, terminated }

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var hooks: EventHooks<Input, Failure>?
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription
    @usableFromInline let name: String

    @inlinable
    init(hooks: EventHooks<Input, Failure>, downstream: Downstream, name: String) {
        self.hooks = hooks
        self.downstream = downstream
        self.name = name
    }

    @usableFromInline var description: String { name }

    @inlinable
    func receive(subscription: any Subscription) {
        let taken = lock.guarded { () -> (Downstream, EventHooks<Input, Failure>)? in
            guard status == .awaitingSubscription, let downstream, let hooks else { return nil }
            status = .subscribed
            upstream = subscription
            return (downstream, hooks)
        }
        guard let (downstream, hooks) = taken else {
            subscription.cancel()  // C06
            return
        }
        hooks.receiveSubscription?(subscription)
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Only the one hook a value needs leaves the lock: copying all five closures cost ten
        // reference-count operations per value.
        let taken = lock.guarded { () -> (Downstream, ((Input) -> Void)?)? in
            // `hooks != nil`, not `let hooks`: binding it would copy the struct.
            guard status == .subscribed, let downstream, hooks != nil else { return nil }
            return (downstream, hooks?.receiveOutput)
        }
        guard let (downstream, receiveOutput) = taken else { return .none }
        receiveOutput?(input)
        let more = downstream.receive(input)
        if more > 0, let hook = lock.guarded({ status == .subscribed ? self.hooks?.receiveRequest : nil }) {
            hook(more, true)
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let taken = lock.guarded { () -> (Downstream, EventHooks<Input, Failure>)? in
            guard status == .subscribed, let downstream, let hooks else { return nil }
            status = .terminated
            release()
            return (downstream, hooks)
        }
        guard let (downstream, hooks) = taken else { return }
        hooks.receiveCompletion?(completion)
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }  // C07: request(.none) is a no-op
        let taken = lock.guarded { () -> (any Subscription, ((Subscribers.Demand, Bool) -> Void)?)? in
            guard status == .subscribed, let upstream else { return nil }
            return (upstream, hooks?.receiveRequest)
        }
        guard let (upstream, hook) = taken else { return }
        hook?(demand, false)
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // The hooks and the downstream leave the lock before they are released: a captured
        // object's deinit may call back into this subscription (C23).
        let taken = lock.guarded { () -> ((any Subscription)?, EventHooks<Input, Failure>?, Downstream?)? in
            guard status == .subscribed else { return nil }
            status = .terminated
            let taken = (upstream, hooks, downstream)
            release()
            return taken
        }
        guard let (upstream, hooks, downstream) = taken else { return }
        hooks?.receiveCancel?()
        upstream?.cancel()
        withExtendedLifetime((hooks, downstream)) {}
    }

    /// Drops every reference; call with the lock held.
    @inlinable
    func release() {
        hooks = nil
        downstream = nil
        upstream = nil
    }
}
