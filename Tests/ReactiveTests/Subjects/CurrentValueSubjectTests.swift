import Testing
import Reactive
import ReactiveTestSupport

@Suite("Subjects: CurrentValueSubject")
struct CurrentValueSubjectTests {
    @Test("a subscriber gets the current value, then later ones")
    func currentThenLater() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.send(2)
        subject.value = 3
        #expect(sub.values == [1, 2, 3])
        #expect(subject.value == 3)
        #expect(sub.violations.isEmpty)
    }

    @Test("C11 the current value waits for demand and is the latest when it comes")
    func waitsForDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(sub)
        subject.send(2)
        #expect(sub.values.isEmpty)
        sub.request(.max(1))
        #expect(sub.values == [2])
        subject.send(3)
        #expect(sub.values == [2])
        sub.request(.max(1))
        #expect(sub.values == [2, 3], "a value sent without demand is kept for the next request (Combine)")
        sub.request(.max(1))
        subject.send(4)
        #expect(sub.values == [2, 3, 4])
        #expect(sub.violations.isEmpty)
    }

    @Test("sending updates value even with no subscribers")
    func valueUpdates() {
        let subject = CurrentValueSubject<String, Never>("a")
        subject.send("b")
        #expect(subject.value == "b")
        let sub = TestSubscriber<String, Never>()
        subject.subscribe(sub)
        #expect(sub.values == ["b"])
    }

    @Test("C30 sends after completion are ignored; a late subscriber gets subscription and completion only")
    func afterCompletion() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.send(completion: .failure(TestError()))
        subject.send(2)
        #expect(subject.value == 1, "send after completion is ignored")
        let sub = TestSubscriber<Int, TestError>()
        subject.subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError())])
    }

    @Test("C30 value can still be set after completion (Combine); nothing is delivered")
    func setValueAfterCompletion() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.send(completion: .finished)
        subject.value = 3
        #expect(subject.value == 3)
        #expect(sub.events == [.subscription, .value(1), .finished])
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .finished])
    }

    @Test("C30 a subscriber sees the completion after its values")
    func completion() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        subject.send(completion: .finished)
        subject.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .finished])
    }

    @Test("C22 a value set from inside receive is delivered after the current call")
    func reentrantSet() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, _ in
            if value < 3 { subject.value = value + 1 }
            return .none
        }
        subject.subscribe(sub)
        #expect(sub.values == [0, 1, 2, 3])
        #expect(sub.maxNesting == 1)
        #expect(subject.value == 3)
    }

    @Test("C12 subscribers' demands are independent")
    func independentDemand() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let one = TestSubscriber<Int, Never>(initialDemand: .max(1))
        let all = TestSubscriber<Int, Never>()
        subject.subscribe(one)
        subject.subscribe(all)
        subject.send(1)
        subject.send(2)
        #expect(one.values == [0])
        #expect(all.values == [0, 1, 2])
    }

    @Test("C05 cancel stops delivery; request after cancel is a no-op")
    func cancel() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(sub)
        sub.cancel()
        sub.request(.max(3))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(sub.events == [.subscription])
    }

    @Test("C16 cancel releases the subscriber")
    func cancelReleases() {
        final class Token {}
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil)
        cancellable = nil
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test("a subject as subscriber: subscribe(subject) sets its value")
    func asSubscriber() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let link = [5, 6].publisher.subscribe(subject)
        #expect(subject.value == 6)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        #expect(sub.events == [.subscription, .finished])
        link.cancel()
    }
}
