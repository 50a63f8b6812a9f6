import Reactive
import ReactiveTestSupport
import Testing

/// A subscription that records what it is asked. Shared with the other contract suites
/// (`PerValueRelayTests`).
final class SubscriptionProbe: Subscription {
    var requested: [Subscribers.Demand] = []
    var isCancelled = false
    func request(_ demand: Subscribers.Demand) { requested.append(demand) }
    func cancel() { isCancelled = true }
}

/// A misbehaving publisher that hands its subscriber two subscriptions.
struct TwiceSubscribing: Publisher {
    typealias Output = Int
    typealias Failure = TestError
    let first = SubscriptionProbe()
    let second = SubscriptionProbe()
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
    }
}

/// C06 on the operator `make` puts after a ``TwiceSubscribing``: the second subscription is
/// cancelled, the first kept and asked for the subscriber's demand, no violation recorded.
func expectSecondSubscriptionCancelled<P: Publisher>(
    sourceLocation: SourceLocation = #_sourceLocation, _ make: (TwiceSubscribing) -> P
) {
    let twice = TwiceSubscribing()
    let sub = recordSubscriber(make(twice), demand: .max(2))
    #expect(twice.second.isCancelled, sourceLocation: sourceLocation)
    #expect(!twice.first.isCancelled, sourceLocation: sourceLocation)
    #expect(twice.first.requested == [.max(2)], sourceLocation: sourceLocation)
    #expect(sub.violations == [], sourceLocation: sourceLocation)
}

/// Contract rules checked on representative stateful operators: `tryMap` (a wrapping
/// pass-through), `reduce` (a reducer) and `prefix` (ends early). Every stateful operator shares
/// their `StepEngine`, so these stand for all of them.
@Suite("Operators: contract rules on stateful operators")
struct OperatorContractTests {
    @Test("C03 completing with zero outstanding demand is accepted")
    func zeroDemandCompletion() {
        let source = ManualPublisher<Int, TestError>()
        let mapped = recordSubscriber(source.tryMap { $0 }, demand: .none)
        source.send(completion: .finished)
        #expect(mapped.events.map(\.description) == expectedEvents([]))
        #expect(mapped.violations == [])
        let reduced = recordSubscriber(Empty<Int, Never>().reduce(0, +), demand: .none)
        #expect(reduced.events == [.subscription])
        reduced.request(.max(1))
        #expect(reduced.events == [.subscription, .value(0), .finished])
    }

    @Test("C04 failures are never lost: thrown or upstream, exactly one failure")
    func failuresNotLost() {
        let thrown = recordSubscriber([1, 2].publisher.tryMap { _ -> Int in throw TestError("t") }.reduce(0, +))
        #expect(thrown.events.map(\.description) == expectedEvents([], "failure(t)"))
        let source = ManualPublisher<Int, TestError>()
        let upstream = recordSubscriber(source.tryMap { $0 }.collect())
        source.send(1)
        source.send(completion: .failure(TestError("u")))
        source.send(completion: .failure(TestError("again")))
        #expect(upstream.events.map(\.description) == expectedEvents([], "failure(u)"))
        #expect(upstream.violations == [])
    }

    @Test("C05 after a completion, request and cancel are no-ops")
    func noOpsAfterCompletion() {
        func check<P: Publisher>(_ make: (ManualPublisher<Int, TestError>) -> P) {
            let source = ManualPublisher<Int, TestError>()
            let sub = recordSubscriber(make(source), demand: .max(1))
            let before = source.last?.requested ?? []
            source.send(completion: .finished)
            sub.request(.max(5))
            sub.cancel()
            #expect(source.last?.requested == before)
            #expect(source.last?.isCancelled == false)
            #expect(sub.violations == [])
        }
        check { $0.tryMap { $0 } }
        check { $0.reduce(0, +) }
    }

    @Test("C05 after a cancel nothing arrives, not even a completion")
    func nothingAfterCancel() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.prefix(3))
        source.send(1)
        sub.cancel()
        source.send(2)
        source.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .value(1)])
    }

    @Test("C06 a second subscription is cancelled and the first kept")
    func secondSubscription() {
        expectSecondSubscriptionCancelled { $0.tryMap { $0 } }
        let reducer = TwiceSubscribing()
        _ = recordSubscriber(reducer.count())
        #expect(reducer.second.isCancelled && !reducer.first.isCancelled)
    }

    @Test("C07 request(.none) is a no-op")
    func requestNone() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.tryMap { $0 }, demand: .none)
        sub.request(.none)
        #expect(source.last?.requested == [])
    }

    @Test("C20 request from inside receive through a stateful operator does not recurse")
    func noRecursion() {
        let sub = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1)); return .none
        }
        (1...100_000).publisher.tryMap { $0 }.tryFilter { _ in true }.subscribe(sub)
        #expect(sub.values.count == 100_000)
        #expect(sub.maxNesting <= 1)
        #expect(sub.completion.map { if case .finished = $0 { true } else { false } } == true)
    }

    @Test("C21 cancel from inside receive stops delivery at once")
    func cancelInsideReceive() {
        let sub = TestSubscriber<Int, any Error>()
        sub.onValue = { value, s in
            if value == 3 { s.cancel() }
            return .none
        }
        (1...10).publisher.tryMap { $0 }.subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.completion == nil)
    }

    @Test("C23 callbacks may re-enter request and cancel without deadlock")
    func reentrancy() {
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        sub.onSubscribe = { _, s in
            s.request(.none)
            s.request(.max(1))
        }
        sub.onValue = { _, s in
            s.request(.max(1))
            s.cancel()
            s.cancel()
            return .max(1)
        }
        sub.onCompletion = { _, s in
            s.request(.max(1))
            s.cancel()
        }
        let source = ManualPublisher<Int, TestError>()
        source.reduce(0, +).subscribe(sub)
        source.send(2)
        source.send(completion: .finished)
        // The cancel inside receive(_:) of the final value suppresses the completion (C05).
        #expect(sub.events == [.subscription, .value(2)])
        #expect(sub.violations == [])
    }

    @Test(
        "C09 demand is additive through a wrapping operator: initial plus follow-up plus returned",
        arguments: [(0, 0, 0), (1, 0, 0), (2, 3, 0), (1, 1, 1), (5, 0, 2), (3, 4, 3)])
    func additiveDemand(initial: Int, followUp: Int, returned: Int) {
        let sub = TestSubscriber<Int, any Error>(initialDemand: .max(initial))
        sub.onValue = { value, _ in value == 0 ? .max(returned) : .none }
        (0..<100).publisher.tryMap { $0 }.tryFilter { _ in true }.subscribe(sub)
        sub.request(.max(followUp))
        let firstBatch = initial > 0 ? initial + returned : 0
        #expect(sub.values.count == firstBatch + followUp)
        #expect(sub.values == Array(0..<sub.values.count))
        #expect(sub.violations == [])
    }

    @Test("C09 collect(count) turns each array demanded into count values, returned demand too")
    func additiveDemandByCount() {
        let sub = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        sub.onValue = { value, _ in value == [0, 1] ? .max(1) : .none }
        (0..<20).publisher.collect(2).subscribe(sub)
        #expect(sub.values == [[0, 1], [2, 3]])
        sub.request(.max(2))
        #expect(sub.values == [[0, 1], [2, 3], [4, 5], [6, 7]])
        #expect(sub.violations == [])
    }

    @Test("C02 nothing follows the completion, even sends from inside receive(completion:)")
    func nothingAfterCompletion() {
        let source = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        sub.onCompletion = { _, _ in
            source.send(9)
            source.send(completion: .finished)
        }
        source.prefix(2).subscribe(sub)
        source.send(1)
        source.send(2)
        source.send(3)
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])
        #expect(sub.violations == [])
    }
}
