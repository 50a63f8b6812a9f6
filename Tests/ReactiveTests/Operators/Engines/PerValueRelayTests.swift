import Reactive
import ReactiveTestSupport
import Testing

/// `tryMap`, `tryFilter` and `tryCompactMap` in front of a subscriber that is not a step engine
/// run without one (`PerValueRelay.swift`); these pin that they keep the wrapping operator's rules,
/// with the contract suite's probes (`SubscriptionProbe`, `TwiceSubscribing` and its C06 check in
/// `OperatorContractTests.swift`).
@Suite("Operators: per-value operators without an engine")
struct PerValueRelayTests {
    @Test("the subscription is named after the operator nearest downstream")
    func names() {
        func name<P: Publisher>(_ make: (ManualPublisher<Int, TestError>) -> P) -> String {
            let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
            var names: [String] = []
            subscriber.onSubscribe = { subscription, _ in names.append("\(subscription)") }
            make(ManualPublisher<Int, TestError>()).subscribe(subscriber)
            return names.joined()
        }
        #expect(name { $0.tryMap { $0 } } == "TryMap")
        #expect(name { $0.tryFilter { _ in true } } == "TryFilter")
        #expect(name { $0.tryCompactMap { $0 } } == "TryCompactMap")
        #expect(name { $0.tryMap { $0 }.tryFilter { _ in true } } == "TryFilter")
    }

    @Test("C05 after a thrown error, request and cancel are no-ops and nothing passes")
    func afterThrow() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(
            source.tryFilter { n in
                if n == 2 { throw TestError("two") }
                return true
            }, demand: .max(5))
        source.send(1)
        source.send(2)
        let requested = source.last?.requested
        sub.request(.max(3))
        sub.cancel()
        source.send(3)
        source.send(completion: .failure(TestError("late")))
        #expect(source.last?.requested == requested)
        #expect(source.last?.cancelCount == 1)
        #expect(sub.events.map(\.description) == expectedEvents([1], "failure(two)"))
        #expect(sub.violations == [])
    }

    @Test("C15 a cancel from inside the closure drops the value it was computing")
    func cancelInsideClosure() {
        let sub = TestSubscriber<Int, any Error>()
        (1...10).publisher.tryMap { n -> Int in
            if n == 3 { sub.cancel() }
            return n
        }.subscribe(sub)
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
    }

    @Test("C13 a dropped value asks upstream for one more; other demand passes one for one")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.tryFilter { $0 % 2 == 0 }, demand: .max(2))
        source.send(1)
        source.send(2)
        sub.request(.max(1))
        #expect(sub.values == [2])
        #expect(source.last?.requested == [.max(2), .max(1)])
    }

    @Test("C06 a second subscription is cancelled, the first kept")
    func secondSubscription() {
        expectSecondSubscriptionCancelled { $0.tryCompactMap { $0 } }
    }

    @Test("C16 a cancel before the subscription cancels the subscription when it comes")
    func cancelBeforeSubscription() {
        let twice = TwiceSubscribing()
        let sub = TestSubscriber<Int, any Error>(initialDemand: .none)
        sub.onSubscribe = { subscription, _ in subscription.cancel() }
        twice.tryMap { $0 }.subscribe(sub)
        #expect(twice.first.isCancelled)
        #expect(twice.second.isCancelled)
    }
}
