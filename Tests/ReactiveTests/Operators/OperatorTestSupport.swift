import Reactive
import ReactiveTestSupport
import Testing

// Helpers shared by the operator tests: compact event recording and the checks every operator
// gets (cancellation forwarded, nothing after cancel, the C19 lifecycle matrix).

/// Subscribes a fresh `TestSubscriber` with `demand` to `publisher` and returns it.
func recordSubscriber<P: Publisher>(_ publisher: P, demand: Subscribers.Demand = .unlimited) -> TestSubscriber<P.Output, P.Failure> {
    let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: demand)
    publisher.subscribe(subscriber)
    return subscriber
}

/// The events `publisher` sends to a subscriber with `demand`, as text (works for tuples and
/// `any Error`); records a test issue if the contract was breached.
func recordedEvents<P: Publisher>(
    _ publisher: P, demand: Subscribers.Demand = .unlimited, sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
    let subscriber = recordSubscriber(publisher, demand: demand)
    #expect(subscriber.violations == [], sourceLocation: sourceLocation)
    return subscriber.events.map(\.description)
}

/// `["subscription", "value(v)"…, completion]` for comparing with `events`.
func expectedEvents(_ values: [Any], _ completion: String? = "finished") -> [String] {
    ["subscription"] + values.map { "value(\($0))" } + (completion.map { [$0] } ?? [])
}

/// Checks that cancelling downstream cancels upstream exactly as it should, and (for wrapping
/// operators) that a misbehaving upstream sending after cancel reaches no one (C05).
func expectCancellation<P: Publisher>(
    wrapping: Bool, sourceLocation: SourceLocation = #_sourceLocation, _ make: (ManualPublisher<Int, TestError>) -> P
) {
    expectCancellation(failure: TestError.self, wrapping: wrapping, sourceLocation: sourceLocation, make)
}

/// `expectCancellation` over a source with another failure type.
func expectCancellation<F: Error, P: Publisher>(
    failure: F.Type, wrapping: Bool, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (ManualPublisher<Int, F>) -> P
) {
    let source = ManualPublisher<Int, F>()
    let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .max(5))
    make(source).subscribe(subscriber)
    #expect(subscriber.isSubscribed, sourceLocation: sourceLocation)
    subscriber.cancel()
    #expect(source.last?.isCancelled == true, "cancel reaches upstream", sourceLocation: sourceLocation)
    guard wrapping else { return }
    subscriber.cancel()
    subscriber.request(.max(3))
    #expect(source.last?.cancelCount == 1, "a second cancel is a no-op", sourceLocation: sourceLocation)
    #expect(source.last?.requested.count ?? 0 <= 1, "request after cancel is a no-op", sourceLocation: sourceLocation)
    source.send(1)
    source.send(completion: .finished)
    #expect(subscriber.events.map(\.description) == ["subscription"], "nothing after cancel", sourceLocation: sourceLocation)
    #expect(subscriber.violations == [], sourceLocation: sourceLocation)
}

/// An object for weak-reference checks: a closure captures it, the test watches it go away.
final class CapturedToken: @unchecked Sendable {
    // @unchecked: immutable and empty.
    init() {}
    func touch() {}
}

/// A well-behaved source for lifecycle tests: it honours demand and drops its subscriber on
/// cancel and on completion, like a real publisher (ManualPublisher keeps it forever).
final class ReleasingSource<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var subscription: Link?

    init() {}

    final class Link: Subscription, @unchecked Sendable {
        // @unchecked: every stored var is read and written only under `lock`.
        let lock = Lock()
        var downstream: AnySubscriber<Output, Failure>?
        var demand = Subscribers.Demand.none
        init(_ downstream: AnySubscriber<Output, Failure>) { self.downstream = downstream }
        func request(_ more: Subscribers.Demand) { lock.guarded { demand += more } }
        func cancel() { lock.guarded { downstream = nil } }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let link = Link(AnySubscriber(subscriber))
        lock.guarded { subscription = link }
        subscriber.receive(subscription: link)
    }

    /// Sends `value` if the subscriber asked for it.
    func send(_ value: Output) {
        guard let link = lock.guarded({ subscription }) else { return }
        let target = link.lock.guarded { () -> AnySubscriber<Output, Failure>? in
            guard link.demand > 0 else { return nil }
            link.demand -= 1
            return link.downstream
        }
        guard let target else { return }
        let more = target.receive(value)
        link.request(more)
    }

    /// Sends the completion and forgets the subscriber.
    func send(completion: Subscribers.Completion<Failure>) {
        guard let link = lock.guarded({ subscription }) else { return }
        let target = link.lock.guarded { () -> AnySubscriber<Output, Failure>? in
            defer { link.downstream = nil }
            return link.downstream
        }
        target?.receive(completion: completion)
    }
}

/// The C19 lifecycle matrix for one operator: completed → freed; cancelled → freed; never
/// cancelled → kept. `make` builds the operator over the source; when `capturing`, the operator's
/// closure captures the token, which must then be freed or kept with the subscriber. A value is
/// sent first unless `sendingValue` is false (for operators that finish at their first value).
func expectLifecycle<P: Publisher>(
    capturing: Bool = true, sendingValue: Bool = true, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (ReleasingSource<Int, TestError>, CapturedToken) -> P
) {
    for scenario in ["completed", "cancelled", "kept"] {
        let source = ReleasingSource<Int, TestError>()
        weak var weakSubscriber: TestSubscriber<P.Output, P.Failure>?
        weak var weakToken: CapturedToken?
        do {
            let token = CapturedToken()
            weakToken = token
            let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .unlimited)
            weakSubscriber = subscriber
            make(source, token).subscribe(subscriber)
            if sendingValue { source.send(1) }
            switch scenario {
            case "completed": source.send(completion: .finished)
            case "cancelled": subscriber.cancel()
            default: break
            }
        }
        let kept = scenario == "kept"
        #expect((weakSubscriber != nil) == kept, "\(scenario): subscriber", sourceLocation: sourceLocation)
        if capturing {
            #expect((weakToken != nil) == kept, "\(scenario): captured closure", sourceLocation: sourceLocation)
        }
        withExtendedLifetime(source) {}
    }
}

/// C33 for a throwing operator: `make` builds it with `check`, which throws `TestError("two")`
/// for the value 2. Sends 1, 2, 3 and `.finished`: expects `before`, then exactly one failure,
/// upstream cancelled, nothing after.
func expectThrowing<P: Publisher>(
    before: [String], sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (ManualPublisher<Int, TestError>, _ check: @escaping (Int) throws -> Void) -> P
) {
    let source = ManualPublisher<Int, TestError>()
    let subscriber = recordSubscriber(make(source) { if $0 == 2 { throw TestError("two") } })
    source.send(1)
    source.send(2)
    #expect(source.last?.cancelCount == 1, "upstream cancelled once", sourceLocation: sourceLocation)
    source.send(3)
    source.send(completion: .finished)
    #expect(subscriber.events.map(\.description) == ["subscription"] + before + ["failure(two)"], sourceLocation: sourceLocation)
    #expect(subscriber.violations == [], sourceLocation: sourceLocation)
}

/// C03 for a reducer: it asks upstream for `.unlimited`, completes fine with zero downstream
/// demand, and holds `result` until demand arrives.
func expectReducer<P: Publisher>(
    sending values: [Int], result: String?, sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (ManualPublisher<Int, TestError>) -> P
) {
    let source = ManualPublisher<Int, TestError>()
    let subscriber = recordSubscriber(make(source), demand: .none)
    #expect(source.last?.requested == [.unlimited], "a reducer asks for everything", sourceLocation: sourceLocation)
    for value in values { source.send(value) }
    source.send(completion: .finished)
    // Held until demand, the result and the `.finished` alike (as Combine holds an empty end).
    #expect(subscriber.events.map(\.description) == ["subscription"], "held until demand", sourceLocation: sourceLocation)
    subscriber.request(.max(1))
    if let result {
        #expect(subscriber.events.map(\.description) == ["subscription", "value(\(result))", "finished"], sourceLocation: sourceLocation)
    } else {
        #expect(subscriber.events.map(\.description) == ["subscription", "finished"], sourceLocation: sourceLocation)
    }
    subscriber.request(.max(1))
    #expect(subscriber.violations == [], sourceLocation: sourceLocation)
}
