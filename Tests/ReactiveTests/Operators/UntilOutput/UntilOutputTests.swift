import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: prefix(untilOutputFrom:)")
struct PrefixUntilOutputTests {
    @Test("values pass until the other publisher emits, then finished and both cancelled")
    func stops() {
        let upstream = ManualPublisher<Int, TestError>()
        let other = ManualPublisher<String, Never>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        #expect(other.last?.requested == [.max(1)])
        upstream.send(1)
        upstream.send(2)
        other.send("stop")
        upstream.send(3)
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.last?.isCancelled == true)
        #expect(other.last?.isCancelled == true)
    }

    @Test("the other finishing without a value changes nothing")
    func otherFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let other = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        other.send(completion: .failure(TestError()))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .finished])
    }

    // Combine (issue #20 item 3): the trigger is subscribed first and fires before upstream's
    // subscription, so the subscriber gets `.finished` alone (see UntilOutputSubscribeOrderTests).
    @Test("a trigger that fires at once ends the output before any value, without a subscription")
    func immediate() {
        let sub = TestSubscriber<Int, Never>()
        (1...3).publisher.prefix(untilOutputFrom: Just(())).subscribe(sub)
        #expect(sub.events == [.finished])
    }

    @Test("a trigger during a delivery completes after that delivery returns")
    func triggerDuringDelivery() {
        let upstream = ManualPublisher<Int, Never>()
        let other = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, _ in
            other.send(0)
            return .none
        }
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        upstream.send(1)
        #expect(sub.events == [.subscription, .value(1), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 demand passes to the upstream")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).subscribe(sub)
        #expect(sub.values == [1, 2])
        sub.request(.max(10))
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.completion == .finished)
    }

    @Test("C18 cancel cancels both")
    func cancel() {
        let upstream = ManualPublisher<Int, Never>()
        let other = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: other).subscribe(sub)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        #expect(other.last?.isCancelled == true)
    }
}

@Suite("Combining: drop(untilOutputFrom:)")
struct DropUntilOutputTests {
    @Test("values are dropped until the other emits; the other is then cancelled")
    func gate() {
        let upstream = ManualPublisher<Int, TestError>()
        let other = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: other).subscribe(sub)
        #expect(upstream.send(1) == .max(1), "a dropped value asks for a replacement")
        other.send(0)
        #expect(other.last?.isCancelled == true)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(2), .finished])
    }

    @Test("the other's failure fails the output and cancels the upstream")
    func otherFails() {
        let upstream = ManualPublisher<Int, TestError>()
        let other = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: other).subscribe(sub)
        other.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .failure(TestError())])
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("a trigger that finishes without a value finishes the output and cancels the upstream (Combine)")
    func otherFinishesWithoutValue() {
        let upstream = ManualPublisher<Int, TestError>()
        let other = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: other).subscribe(sub)
        upstream.send(1)
        other.send(completion: .finished)
        #expect(sub.events == [.subscription, .finished])
        #expect(upstream.last?.isCancelled == true)
        upstream.send(2)
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("a trigger that finishes after its value changes nothing")
    func otherFinishesAfterValue() {
        let upstream = ManualPublisher<Int, TestError>()
        let other = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: other).subscribe(sub)
        other.send(0)
        other.send(completion: .finished)
        upstream.send(1)
        #expect(sub.events == [.subscription, .value(1)])
    }

    @Test("C08 demand is kept across dropped values")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.drop(untilOutputFrom: Just(0)).subscribe(sub)
        #expect(sub.values == [1, 2])
        let never = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.drop(untilOutputFrom: Empty<Int, Never>()).subscribe(never)
        #expect(never.events == [.subscription, .finished])
    }

    @Test("C18 cancel cancels both")
    func cancel() {
        let upstream = ManualPublisher<Int, Never>()
        let other = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: other).subscribe(sub)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        #expect(other.last?.isCancelled == true)
    }
}
