import Reactive
import Synchronization

/// A publisher driven by hand from a test: it records every `request` and `cancel` it gets and
/// lets the test send values and completions to its subscribers without any checks of its own.
public final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var _subscriptions: [ManualSubscription] = []
    private var downstreams: [AnySubscriber<Output, Failure>] = []

    public init() {}

    /// One subscription's record of demand and cancellation.
    public final class ManualSubscription: Subscription, @unchecked Sendable {
        // @unchecked: every stored var is read and written only under `lock`.
        private let lock = Lock()
        private var _requested: [Subscribers.Demand] = []
        private var _cancelCount = 0
        public init() {}
        public var requested: [Subscribers.Demand] { lock.guarded { _requested } }
        /// The sum of all requests.
        public var totalDemand: Subscribers.Demand { lock.guarded { _requested.reduce(.none, +) } }
        public var cancelCount: Int { lock.guarded { _cancelCount } }
        public var isCancelled: Bool { cancelCount > 0 }
        public func request(_ demand: Subscribers.Demand) { lock.guarded { _requested.append(demand) } }
        public func cancel() { lock.guarded { _cancelCount += 1 } }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ManualSubscription()
        lock.guarded {
            _subscriptions.append(subscription)
            downstreams.append(AnySubscriber(subscriber))
        }
        subscriber.receive(subscription: subscription)
    }

    /// Every subscription made so far, in order.
    public var subscriptions: [ManualSubscription] { lock.guarded { _subscriptions } }
    /// The most recent subscription.
    public var last: ManualSubscription? { subscriptions.last }
    /// How many subscribers attached.
    public var subscriberCount: Int { subscriptions.count }

    /// Sends a value to the latest subscriber (or subscriber `index`), returning its extra demand.
    @discardableResult
    public func send(_ value: Output, to index: Int? = nil) -> Subscribers.Demand {
        let target = lock.guarded { index.map { downstreams[$0] } ?? downstreams.last }
        return target?.receive(value) ?? .none
    }

    /// Sends a completion to the latest subscriber (or subscriber `index`).
    public func send(completion: Subscribers.Completion<Failure>, to index: Int? = nil) {
        let target = lock.guarded { index.map { downstreams[$0] } ?? downstreams.last }
        target?.receive(completion: completion)
    }
}
