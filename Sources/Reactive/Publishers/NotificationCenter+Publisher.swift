import Foundation

extension NotificationCenter {
    /// A publisher of the notifications named `name` (from `object`, if given) posted to this center.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default
    ///     .publisher(for: .NSSystemClockDidChange)
    ///     .sink { print($0.name) }
    /// ```
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: Only notifications from this sender; `nil` for any sender.
    /// - Returns: A `NotificationCenter.Publisher`.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits notifications as they are posted to a center.
    ///
    /// Each subscription adds its own observer when it first receives demand, and removes it on
    /// cancel; until then the center keeps the subscription alive, as in Combine. A notification posted while the subscriber has no demand is dropped for it (as in
    /// Combine). Notifications arrive on the posting thread; concurrent posts are serialised,
    /// and a post from inside the subscriber's `receive(_:)` is delivered after it returns
    /// (within the demand it had then), so calls never overlap or nest. It never completes.
    ///
    /// ```swift
    /// let name = Notification.Name("Ping")
    /// let cancellable = NotificationCenter.Publisher(center: .default, name: name).sink { print($0) }
    /// NotificationCenter.default.post(name: name, object: nil)
    /// ```
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The notification name observed.
        public let name: Notification.Name
        /// The sender observed; `nil` for any.
        public let object: AnyObject?

        /// Creates a publisher of `center`'s notifications named `name`, from `object` if given.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(
                downstream: subscriber, center: center, name: name, object: object)
            subscriber.receive(subscription: subscription)
        }
    }
}

/// What an observer block calls: a notification subscription, with its downstream type hidden.
private protocol NotificationSink: AnyObject, Sendable {
    func deliver(_ notification: Notification)
}

/// One subscriber's observer. Delivery is a trampoline: the thread that finds nobody delivering
/// delivers every queued notification in turn; the others queue theirs (demand already taken).
private final class NotificationSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    NotificationSink, @unchecked Sendable
where Downstream.Input == Notification {
    // @unchecked: every stored var is read and written only under `lock`; the rest are `let`s.
    private let lock = Lock()
    private let center: NotificationCenter
    private let name: Notification.Name
    private let object: AnyObject?
    @exclusivity(unchecked) private var downstream: Downstream?
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var pending: [Notification] = []
    @exclusivity(unchecked) private var delivering = false
    @exclusivity(unchecked) private var observing = false
    @exclusivity(unchecked) private var token: (any NSObjectProtocol)?

    init(downstream: Downstream, center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        self.downstream = downstream
        self.center = center
        self.name = name
        self.object = object
    }

    var description: String { "NotificationCenter Observer" }

    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let startObserving = lock.guarded { () -> Bool in
            guard downstream != nil else { return false }
            demand += more
            defer { observing = true }
            return !observing
        }
        guard startObserving else { return }
        // Held strongly, as in Combine: the center keeps the subscription alive until `cancel()`
        // removes the observer, even if the subscriber does not keep it. Through a non-generic
        // existential, so the observer block does not capture `Downstream`.
        let sink: any NotificationSink = self
        let added = center.addObserver(forName: name, object: object, queue: nil) { notification in
            sink.deliver(notification)
        }
        let stale = lock.guarded { () -> Bool in
            guard downstream != nil else { return true }
            token = added
            return false
        }
        if stale { center.removeObserver(added) }
    }

    func deliver(_ notification: Notification) {
        let target = lock.guarded { () -> Downstream? in
            guard let downstream, demand > 0 else { return nil }
            demand -= 1
            pending.append(notification)
            guard !delivering else { return nil }
            delivering = true
            return downstream
        }
        guard let target else { return }
        while true {
            let (next, dropped) = lock.guarded { () -> (Notification?, [Notification]) in
                guard downstream != nil, !pending.isEmpty else {
                    delivering = false
                    defer { pending = [] }
                    return (nil, pending)
                }
                return (pending.removeFirst(), [])
            }
            _ = dropped
            guard let next else { return }
            let more = target.receive(next)
            if more > 0 { lock.guarded { if downstream != nil { demand += more } } }
        }
    }

    func cancel() {
        let (observer, dropped, queued) = lock.guarded {
            () -> ((any NSObjectProtocol)?, Downstream?, [Notification]) in
            defer {
                token = nil
                downstream = nil
                pending = []
            }
            return (token, downstream, pending)
        }
        _ = (dropped, queued)
        if let observer { center.removeObserver(observer) }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Two publishers are equal when they observe the same center (identity), the same name and
    /// the same object (identity), as in Combine.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}
