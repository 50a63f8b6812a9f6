import Reactive
import ReactiveTestSupport

// Helpers for tests of the order in which an operator talks to its upstreams and its
// downstream: every party writes to one shared log, and the test compares the log.

/// One log shared by the publishers and subscribers of an ordering test.
final class OrderLog: @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var _entries: [String] = []

    init() {}

    /// Appends one entry.
    func add(_ entry: String) { lock.guarded { _entries.append(entry) } }

    /// Every entry so far, in order.
    var entries: [String] { lock.guarded { _entries } }

    /// Forgets the entries so far (to look only at what follows).
    func clear() { lock.guarded { _entries.removeAll() } }
}

/// A publisher driven by hand that logs, under its name, each subscriber it gets ("up subscribe"),
/// each request ("up request(max(1))") and each cancel ("up cancel").
final class LoggedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var downstreams: [AnySubscriber<Output, Failure>] = []
    let name: String
    let log: OrderLog

    init(_ name: String, log: OrderLog) {
        self.name = name
        self.log = log
    }

    final class LoggedSubscription: Subscription, @unchecked Sendable {
        // @unchecked: immutable.
        let name: String
        let log: OrderLog
        init(name: String, log: OrderLog) {
            self.name = name
            self.log = log
        }
        func request(_ demand: Subscribers.Demand) { log.add("\(name) request(\(demand))") }
        func cancel() { log.add("\(name) cancel") }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        log.add("\(name) subscribe")
        lock.guarded { downstreams.append(AnySubscriber(subscriber)) }
        subscriber.receive(subscription: LoggedSubscription(name: name, log: log))
    }

    /// How many subscribers attached.
    var subscriberCount: Int { lock.guarded { downstreams.count } }

    /// Sends a value to the latest subscriber.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        lock.guarded { downstreams.last }?.receive(value) ?? .none
    }

    /// Sends a completion to the latest subscriber.
    func send(completion: Subscribers.Completion<Failure>) {
        lock.guarded { downstreams.last }?.receive(completion: completion)
    }
}

/// A subscriber that logs what it gets ("down subscription", "down value(1)", "down finished")
/// and requests `initialDemand` when subscribed.
final class LoggedSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var subscription: (any Subscription)?
    let log: OrderLog
    let initialDemand: Subscribers.Demand

    init(log: OrderLog, initialDemand: Subscribers.Demand = .unlimited) {
        self.log = log
        self.initialDemand = initialDemand
    }

    func receive(subscription: any Subscription) {
        log.add("down subscription")
        lock.guarded { self.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.add("down value(\(input))")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.add("down finished")
        case .failure(let error): log.add("down failure(\(error))")
        }
    }

    /// Cancels through the subscription it got.
    func cancel() { lock.guarded { subscription }?.cancel() }

    /// Requests through the subscription it got.
    func request(_ demand: Subscribers.Demand) { lock.guarded { subscription }?.request(demand) }
}
