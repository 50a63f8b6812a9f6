extension Publishers {
    /// The publisher `autoconnect()` returns: connects on the first subscriber, disconnects
    /// (cancels the connection) when the last one cancels, and connects again for the next one
    /// after that.
    ///
    /// As in Combine, a subscriber that *completes* still counts: a later subscriber joins the
    /// connection that already finished (a subject then replays its completion) instead of
    /// connecting and subscribing upstream again.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The connectable publisher being managed.
        public final let upstream: Upstream
        @usableFromInline let refCount: AutoconnectRefCount

        /// Creates a publisher that manages `upstream`'s connection.
        public init(upstream: Upstream) {
            self.upstream = upstream
            refCount = AutoconnectRefCount()
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let first = refCount.retain()
            upstream.receive(subscriber: AutoconnectSubscriber(downstream: subscriber, refCount: refCount))
            if first { refCount.connected(upstream.connect()) }
        }
    }
}

/// Counts an `Autoconnect`'s live subscribers and holds its connection. Untyped on purpose: the
/// subscriber wrapper refers to it without mentioning the upstream type.
@usableFromInline
final class AutoconnectRefCount: @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var connection: (any Cancellable)?

    @usableFromInline init() {}

    /// Adds a subscriber; true if it is the first, so the caller must connect.
    @usableFromInline
    func retain() -> Bool {
        lock.guarded {
            count += 1
            return count == 1
        }
    }

    /// Stores the new connection, or cancels it if every subscriber already left meanwhile.
    @usableFromInline
    func connected(_ new: any Cancellable) {
        let keep = lock.guarded { () -> Bool in
            guard count > 0, connection == nil else { return false }
            connection = new
            return true
        }
        if !keep { new.cancel() }
    }

    /// Removes a subscriber; the last one out cancels the connection.
    @usableFromInline
    func release() {
        let ended = lock.guarded { () -> (any Cancellable)? in
            count -= 1
            guard count == 0 else { return nil }
            let ended = connection
            connection = nil
            return ended
        }
        ended?.cancel()
    }
}

/// Forwards to the downstream and tells the ref count when its subscriber cancels (once).
@usableFromInline
final class AutoconnectSubscriber<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    @usableFromInline let lock = Lock()
    @usableFromInline let downstream: Downstream
    @usableFromInline let refCount: AutoconnectRefCount
    @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription

    @usableFromInline enum Status {
        case awaitingSubscription, subscribed
        /// Completed: still counted by the ref count until it cancels.
        case completed
        case cancelled
    }

    @inlinable
    init(downstream: Downstream, refCount: AutoconnectRefCount) {
        self.downstream = downstream
        self.refCount = refCount
    }

    @usableFromInline var description: String { "Autoconnect" }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.guarded { () -> Bool in
            guard status == .awaitingSubscription else { return false }
            status = .subscribed
            upstream = subscription
            return true
        }
        if accepted {
            downstream.receive(subscription: self)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        // The upstream is released after the lock, like everything a lock gives up.
        // Combine leaves the connection alone here: only a cancel gives the subscriber up.
        let (live, released) = lock.guarded { () -> (Bool, (any Subscription)?) in
            guard status == .subscribed || status == .awaitingSubscription else { return (false, nil) }
            status = .completed
            let released = upstream
            upstream = nil
            return (true, released)
        }
        guard live else { return }
        downstream.receive(completion: completion)
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.guarded { upstream }?.request(demand)
    }

    @usableFromInline
    func cancel() {
        // A cancel after the completion still leaves the ref count, as Combine's does; only the
        // first cancel counts.
        let (live, target) = lock.guarded { () -> (Bool, (any Subscription)?) in
            guard status != .cancelled else { return (false, nil) }
            status = .cancelled
            let target = upstream
            upstream = nil
            return (true, target)
        }
        guard live else { return }
        target?.cancel()
        refCount.release()
    }
}
