import Testing
import Reactive
import ReactiveTestSupport

@Suite("Subjects: re-entrancy and lifecycle")
struct SubjectReentrancyTests {
    @Test("C23 inside receive: request, cancel another, send, subscribe, and drop the last reference")
    func everythingFromInsideReceive() {
        var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
        weak let weakSubject = subject
        let victim = TestSubscriber<Int, Never>()
        let late = TestSubscriber<Int, Never>()
        let actor = TestSubscriber<Int, Never>(initialDemand: .max(1))
        actor.onValue = { value, s in
            guard value == 1, let current = subject else { return .none }
            s.request(.max(1))
            victim.cancel()
            current.subscribe(late)
            current.send(2)
            subject = nil  // the subject stays alive only through the send in progress
            return .max(1)
        }
        subject?.subscribe(actor)
        subject?.subscribe(victim)
        subject?.send(1)
        #expect(actor.values == [1, 2])
        #expect(victim.values == [])
        #expect(late.values == [2])
        #expect([actor, victim, late].allSatisfy { $0.violations.isEmpty })
        actor.cancel()
        late.cancel()
        #expect(weakSubject == nil)
    }

    @Test("C23 inside receive(subscription:): request and send do not deadlock")
    func insideReceiveSubscription() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        sub.onSubscribe = { subscription, _ in
            sub.request(.max(2))
            subject.send(1)
        }
        subject.subscribe(sub)
        // Combine (issue #20 item 5): the request delivers the current value 0 at once, inside
        // receive(subscription:); the 1 sent there follows when that call returns. Demand is then
        // used up, so 2 waits for the next request (item 4).
        #expect(sub.values == [0, 1])
        subject.send(2)
        #expect(sub.values == [0, 1])
        sub.request(.max(1))
        #expect(sub.values == [0, 1, 2])
        #expect(sub.violations.isEmpty)
    }

    @Test("C19 never cancelled: the subscriber is kept while the subject lives")
    func neverCancelledIsKept() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in withExtendedLifetime(token) {} }
        }
        subject.send(1)
        #expect(weakToken != nil)
        cancellable?.cancel()
        #expect(weakToken == nil)
    }

    @Test("a CurrentValueSubject of optionals delivers a nil current value")
    func optionalValues() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let sub = TestSubscriber<Int?, Never>()
        subject.subscribe(sub)
        subject.send(1)
        subject.send(nil)
        #expect(sub.values == [nil, 1, nil])
        #expect(subject.value == nil)
    }

    @Test("C22 concurrent-style re-entrancy: a completion from inside receive while values are queued")
    func completionAfterQueued() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, _ in
            if value == 1 {
                subject.send(2)
                subject.send(3)
                subject.send(completion: .finished)
            }
            return .none
        }
        subject.subscribe(sub)
        subject.send(1)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C05 a cancel from inside receive drops queued values and the pending completion")
    func cancelDropsQueued() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, s in
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
                s.cancel()
            }
            return .none
        }
        subject.subscribe(sub)
        subject.send(1)
        #expect(sub.events == [.subscription, .value(1)])
    }

    @Test("C23 a dropped queued value whose deinit calls back into the subject does not deadlock")
    func droppedValueDeinit() {
        final class Noisy {
            let onDeinit: () -> Void
            init(_ onDeinit: @escaping () -> Void = {}) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        let subject = PassthroughSubject<Noisy, Never>()
        var deinitRan = false
        let sub = TestSubscriber<Noisy, Never>()
        sub.onValue = { _, s in
            subject.send(Noisy {
                deinitRan = true
                subject.send(completion: .finished)
            })
            s.cancel()
            return .none
        }
        subject.subscribe(sub)
        subject.send(Noisy())
        #expect(deinitRan)
        #expect(sub.values.count == 1)
        #expect(sub.completion == nil)
    }
}
