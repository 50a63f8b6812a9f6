import Reactive
import Synchronization

/// A grammar-checking, demand-counting subscriber that records everything it sees.
///
/// It checks the rules of CONTRACT.md as events arrive and records each breach in `violations`
/// instead of trapping: exactly one subscription first (C01), values never beyond demand (C08),
/// at most one completion and nothing after it (C02), and no overlapping calls (C25).
///
/// ```swift
/// let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// (1...5).publisher.subscribe(sub)
/// #expect(sub.values == [1, 2])
/// #expect(sub.violations.isEmpty)
/// ```
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`; closures are set before subscribing.
    private let lock = Lock()
    private let inside = Atomic<Int>(0)
    private var _events: [RecordedEvent<Input, Failure>] = []
    private var _violations: [String] = []
    private var subscription: (any Subscription)?
    private var outstanding: Subscribers.Demand = .none
    private var completed = false
    private let initialDemand: Subscribers.Demand
    private var _maxNesting = 0
    private var _requests: [Subscribers.Demand] = []

    /// What to return from each `receive(_:)` (default: no extra demand).
    public var onValue: ((Input, TestSubscriber) -> Subscribers.Demand)?
    /// Called after the completion is recorded.
    public var onCompletion: ((Subscribers.Completion<Failure>, TestSubscriber) -> Void)?
    /// Called after the subscription is recorded and the initial demand requested.
    public var onSubscribe: ((any Subscription, TestSubscriber) -> Void)?

    /// - Parameter initialDemand: requested as soon as the subscription arrives (`.none` requests nothing).
    public init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    /// Every event in order.
    public var events: [RecordedEvent<Input, Failure>] { lock.guarded { _events } }
    /// Every value in order.
    public var values: [Input] {
        lock.guarded { _events.compactMap { if case .value(let v) = $0 { return v } else { return nil } } }
    }
    /// The completion, if any.
    public var completion: Subscribers.Completion<Failure>? {
        lock.guarded {
            for event in _events {
                switch event {
                case .finished: return .finished
                case .failure(let e): return .failure(e)
                default: continue
                }
            }
            return nil
        }
    }
    /// Breaches of the contract seen so far; empty when the publisher behaved.
    public var violations: [String] { lock.guarded { _violations } }
    /// The deepest nesting of `receive` calls seen (1 when nothing re-entered).
    public var maxNesting: Int { lock.guarded { _maxNesting } }
    /// Every demand requested through `request(_:)` and the initial demand.
    public var requests: [Subscribers.Demand] { lock.guarded { _requests } }
    /// Whether a subscription arrived.
    public var isSubscribed: Bool { lock.guarded { subscription != nil } }

    /// Requests `demand` more through the stored subscription.
    public func request(_ demand: Subscribers.Demand) {
        let sub = lock.guarded { () -> (any Subscription)? in
            outstanding += demand
            _requests.append(demand)
            return subscription
        }
        sub?.request(demand)
    }

    /// Cancels the stored subscription.
    public func cancel() {
        let sub = lock.guarded { subscription }
        sub?.cancel()
    }

    private func enter() {
        let depth = inside.add(1, ordering: .acquiringAndReleasing).newValue
        lock.guarded { _maxNesting = max(_maxNesting, depth) }
    }

    private func leave() { inside.subtract(1, ordering: .acquiringAndReleasing) }

    public func receive(subscription: any Subscription) {
        let first = lock.guarded { () -> Bool in
            if self.subscription != nil || completed || !_events.isEmpty {
                _violations.append("C06: second subscription received")
                return false
            }
            self.subscription = subscription
            _events.append(.subscription)
            return true
        }
        guard first else {
            subscription.cancel()
            return
        }
        if initialDemand > 0 { request(initialDemand) }
        onSubscribe?(subscription, self)
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        let depth = inside.load(ordering: .acquiring)
        enter()
        defer { leave() }
        lock.guarded {
            if subscription == nil { _violations.append("C01: value before subscription") }
            if completed { _violations.append("C02: value after completion") }
            if depth > 0 && _maxNesting > 1 && !allowsNesting { _violations.append("C25: overlapping receive") }
            if outstanding == .none {
                _violations.append("C08: value beyond demand")
            } else {
                outstanding -= 1
            }
            _events.append(.value(input))
        }
        let more = onValue?(input, self) ?? .none
        if more > 0 { lock.guarded { outstanding += more } }
        return more
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        defer { leave() }
        lock.guarded {
            if subscription == nil { _violations.append("C01: completion before subscription") }
            if completed { _violations.append("C02: second completion") }
            completed = true
            switch completion {
            case .finished: _events.append(.finished)
            case .failure(let e): _events.append(.failure(e))
            }
        }
        onCompletion?(completion, self)
    }

    /// Set to `true` when a test deliberately re-enters (a value sent from inside `receive`).
    public var allowsNesting = false
}

extension TestSubscriber where Input: Equatable, Failure: Equatable {
    /// Whether the recorded events equal `expected`.
    public func matches(_ expected: [RecordedEvent<Input, Failure>]) -> Bool { events == expected }
}
