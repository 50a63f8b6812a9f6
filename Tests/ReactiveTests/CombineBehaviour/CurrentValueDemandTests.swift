import Reactive
import ReactiveTestSupport
import Testing

/// Logs `receive(subscription:)`'s start and end around its request, and each value, to show
/// whether a value arrives before `receive(subscription:)` returns.
final class RequestingLogger<Input>: Subscriber, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    typealias Failure = Never
    private let lock = Lock()
    private var _log: [String]
    private let name: String
    private let demand: Subscribers.Demand

    init(_ name: String = "", demand: Subscribers.Demand = .unlimited, log: [String] = []) {
        self.name = name
        self.demand = demand
        _log = log
    }

    var log: [String] { lock.guarded { _log } }
    private func add(_ entry: String) { lock.guarded { _log.append(name + entry) } }

    func receive(subscription: any Subscription) {
        add("subscription")
        subscription.request(demand)
        add("subscription returns")
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        add("value \(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) { add("completion") }
}

/// One log shared by several subscribers.
final class SharedLog: @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.guarded { entries.append(entry) } }
    var all: [String] { lock.guarded { entries } }
}

final class SharedLogSubscriber: Subscriber, @unchecked Sendable {
    // @unchecked: immutable.
    typealias Input = Int
    typealias Failure = Never
    let name: String
    let log: SharedLog
    init(_ name: String, _ log: SharedLog) {
        self.name = name
        self.log = log
    }
    func receive(subscription: any Subscription) {
        log.add("\(name) subscription")
        subscription.request(.max(1))
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        log.add("\(name) value \(input)")
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {}
}

final class Pair: ObservableObject {
    @Published var x: Int
    init(_ x: Int) { self.x = x }
}

// Issue #20 items 4 and 5. Combine facts: a `CurrentValueSubject` (and so a `@Published`
// property's publisher) keeps a value sent while a subscriber has no demand, and delivers it at
// that subscriber's next request; a request made inside `receive(subscription:)` delivers the
// current value before `receive(subscription:)` returns. Source: the OpenCombine project's
// CurrentValueSubject and Published tests, which its authors check against Apple's Combine
// (demand-less sends followed by `request(.max(10))` deliver the latest value; events of ten
// subscribers interleave subscription, value, subscription, value). Apple's documentation:
// "Unlike PassthroughSubject, CurrentValueSubject maintains a buffer of the most recently
// published element."
@Suite("Combine behaviour: CurrentValueSubject and @Published demand")
struct CurrentValueDemandTests {
    @Test("a value set while the subscriber has no demand is delivered at its next request")
    func demandlessValueKeptForNextRequest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(sub)
        #expect(sub.values == [0])
        subject.send(1)
        subject.send(2)
        #expect(sub.values == [0])
        sub.request(.max(10))
        #expect(sub.values == [0, 2], "only the latest, once")
        subject.send(3)
        #expect(sub.values == [0, 2, 3])
        #expect(sub.violations.isEmpty)
    }

    @Test("@Published: a value set while the subscriber has no demand is delivered at its next request")
    func publishedDemandlessValueKept() {
        let model = Pair(0)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        model.$x.subscribe(sub)
        model.x = 5
        #expect(sub.values == [0])
        sub.request(.max(10))
        #expect(sub.values == [0, 5])
    }

    @Test("a PassthroughSubject still drops a value sent without demand")
    func passthroughStillDrops() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(sub)
        subject.send(1)
        sub.request(.max(1))
        #expect(sub.values.isEmpty)
    }

    @Test("a request inside receive(subscription:) gets the current value before that call returns")
    func currentValueDeliveredSynchronously() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let sub = RequestingLogger<Int>(demand: .max(1))
        subject.subscribe(sub)
        #expect(sub.log == ["subscription", "value 7", "subscription returns"])
        subject.send(8)
        #expect(sub.log.last == "subscription returns", "demand used up")
    }

    @Test("@Published: the current value arrives inside receive(subscription:)")
    func publishedCurrentValueSynchronous() {
        let model = Pair(3)
        let sub = RequestingLogger<Int>()
        model.$x.subscribe(sub)
        model.x = 4
        #expect(sub.log == ["subscription", "value 3", "subscription returns", "value 4"])
    }

    @Test("ten subscribers: subscription, value, subscription, value … interleave")
    func tenSubscribersInterleave() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let log = SharedLog()
        for i in 0..<10 { subject.subscribe(SharedLogSubscriber("s\(i)", log)) }
        let expected = (0..<10).flatMap { ["s\($0) subscription", "s\($0) value 1"] }
        #expect(log.all == expected)
    }

    @Test("a.$x = b.$x leaves a.x and a's subscribers as they were")
    func assigningAPublisherChangesNothing() {
        let a = Pair(1)
        let b = Pair(2)
        let sub = TestSubscriber<Int, Never>()
        a.$x.subscribe(sub)
        a.$x = b.$x
        #expect(a.x == 1)
        a.x = 3
        #expect(sub.values == [1, 3])
        #expect(b.x == 2)
    }
}
