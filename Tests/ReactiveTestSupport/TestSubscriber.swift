import Reactive
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key of each thread's serial number (`threadSerial()`).
private let threadSerialKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
private let nextThreadSerial = Atomic<Int>(1)

/// A number for the calling thread that no other thread of the process ever gets, unlike a
/// `pthread_t`, which a new thread reuses once the old one exits.
func threadSerial() -> Int {
    if let stored = pthread_getspecific(threadSerialKey) { return Int(bitPattern: stored) }
    let serial = nextThreadSerial.add(1, ordering: .relaxed).oldValue
    pthread_setspecific(threadSerialKey, UnsafeRawPointer(bitPattern: serial))
    return serial
}

/// A grammar-checking, demand-counting subscriber that records everything it sees.
///
/// It checks the rules of CONTRACT.md as events arrive and records each breach in `violations`
/// instead of trapping: exactly one subscription first (C01), values never beyond demand (C08),
/// at most one completion and nothing after it (C02), no call overlapping another from a second
/// thread, a value or the completion (C25; re-entrant values on one thread only with
/// `allowsNesting`), and nothing new on a thread after its `cancel()` returned there (C15).
/// Deliveries that start on other threads after a cancel returned are recorded in
/// `eventsAfterCancel`, for each test to bound by what can be in flight.
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
    private var _valueCount = 0
    private var _violations: [String] = []
    private var subscription: (any Subscription)?
    private var outstanding: Subscribers.Demand = .none
    private var completed = false
    private let initialDemand: Subscribers.Demand
    private var _maxNesting = 0
    private var _requests: [Subscribers.Demand] = []
    /// The threads inside `receive` now (one entry per call; a thread twice when nested).
    private var insideThreads: [Int] = []
    /// The threads whose `cancel()` has returned.
    private var cancellingThreads: Set<Int> = []
    private var _eventsAfterCancel: [RecordedEvent<Input, Failure>] = []

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
    /// How many values arrived: for a thread that polls while values flow. `values.count` builds
    /// the whole array under the lock each time, which slows the deliveries it waits for (a
    /// canceller polling it under ThreadSanitizer took the combining cancel race past a minute).
    public var valueCount: Int { lock.guarded { _valueCount } }
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
    /// The values and completion whose delivery started, on any thread, after a `cancel()` had
    /// returned: at most what was already in flight on other threads (C15).
    public var eventsAfterCancel: [RecordedEvent<Input, Failure>] { lock.guarded { _eventsAfterCancel } }

    /// Requests `demand` more through the stored subscription.
    public func request(_ demand: Subscribers.Demand) {
        let sub = lock.guarded { () -> (any Subscription)? in
            outstanding += demand
            _requests.append(demand)
            return subscription
        }
        sub?.request(demand)
    }

    /// Cancels the stored subscription; from then on nothing may start on this thread (C15).
    public func cancel() {
        let sub = lock.guarded { subscription }
        guard let sub else { return }
        sub.cancel()
        let thread = threadSerial()
        lock.guarded { _ = cancellingThreads.insert(thread) }
    }

    /// Records the call's entry; returns the C25 and C15 breaches it makes. Called under `lock`.
    private func enter(_ event: RecordedEvent<Input, Failure>, thread: Int) -> [String] {
        var breaches: [String] = []
        let isValue: Bool
        if case .value = event { isValue = true } else { isValue = false }
        if insideThreads.contains(where: { $0 != thread }) {
            breaches.append(isValue ? "C25: overlapping receive" : "C25: completion overlapping a value")
        } else if isValue && !insideThreads.isEmpty && !allowsNesting {
            breaches.append("C25: overlapping receive")
        }
        if cancellingThreads.contains(thread) {
            breaches.append("C15: \(isValue ? "value" : "completion") after cancel on the cancelling thread")
        }
        if !cancellingThreads.isEmpty { _eventsAfterCancel.append(event) }
        insideThreads.append(thread)
        return breaches
    }

    private func leave(thread: Int) {
        inside.subtract(1, ordering: .acquiringAndReleasing)
        lock.guarded {
            if let index = insideThreads.lastIndex(of: thread) { insideThreads.remove(at: index) }
        }
    }

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
        let thread = threadSerial()
        let depth = inside.add(1, ordering: .acquiringAndReleasing).newValue
        defer { leave(thread: thread) }
        lock.guarded {
            _maxNesting = max(_maxNesting, depth)
            _violations += enter(.value(input), thread: thread)
            if subscription == nil { _violations.append("C01: value before subscription") }
            if completed { _violations.append("C02: value after completion") }
            if outstanding == .none {
                _violations.append("C08: value beyond demand")
            } else {
                outstanding -= 1
            }
            _events.append(.value(input))
            _valueCount += 1
        }
        let more = onValue?(input, self) ?? .none
        if more > 0 { lock.guarded { outstanding += more } }
        return more
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        let thread = threadSerial()
        let depth = inside.add(1, ordering: .acquiringAndReleasing).newValue
        defer { leave(thread: thread) }
        let event: RecordedEvent<Input, Failure>
        switch completion {
        case .finished: event = .finished
        case .failure(let e): event = .failure(e)
        }
        lock.guarded {
            _maxNesting = max(_maxNesting, depth)
            _violations += enter(event, thread: thread)
            if subscription == nil { _violations.append("C01: completion before subscription") }
            if completed { _violations.append("C02: second completion") }
            completed = true
            _events.append(event)
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
