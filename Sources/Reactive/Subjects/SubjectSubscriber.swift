/// Subscribes a subject to an upstream publisher. It passes itself to the subject as the upstream
/// subscription, so cancelling it (the `AnyCancellable` that `subscribe(_:)` returns) cancels upstream.
///
/// It holds the subject weakly, as Combine does: a connection does not keep its subject alive
/// (the subject's owner and its subscriptions do), and a subject that goes away cancels this
/// link from its deinit.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible {
    private let lock = Lock()
    @exclusivity(unchecked) private weak var subject: Downstream?
    @exclusivity(unchecked) private var upstream: (any Subscription)?
    @exclusivity(unchecked) private var status = Status.awaitingSubscription

    private enum Status { case awaitingSubscription, subscribed, terminated }

    init(_ subject: Downstream) {
        self.subject = subject
    }

    var description: String { "Subject" }

    func receive(subscription: any Subscription) {
        let target = lock.guarded { () -> Downstream? in
            guard case .awaitingSubscription = status else { return nil }
            status = .subscribed
            upstream = subscription
            return subject
        }
        guard let target else {
            subscription.cancel()
            return
        }
        target.send(subscription: self)
    }

    func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        let target = lock.guarded { status == .subscribed ? subject : nil }
        target?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        // The upstream is released after the lock, like everything a lock gives up.
        let (target, released) = lock.guarded { () -> (Downstream?, (any Subscription)?) in
            guard status != .terminated else { return (nil, nil) }
            status = .terminated
            let released = upstream
            upstream = nil
            let target = subject
            subject = nil
            return (target, released)
        }
        target?.send(completion: completion)
        withExtendedLifetime(released) {}
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let target = lock.guarded { status == .subscribed ? upstream : nil }
        target?.request(demand)
    }

    func cancel() {
        // The subject is released after the lock: its deinit may cancel its upstreams, us included.
        let (target, released) = lock.guarded { () -> ((any Subscription)?, Downstream?) in
            guard status != .terminated else { return (nil, nil) }
            status = .terminated
            let target = upstream
            let released = subject
            upstream = nil
            subject = nil
            return (target, released)
        }
        target?.cancel()
        withExtendedLifetime(released) {}
    }
}
