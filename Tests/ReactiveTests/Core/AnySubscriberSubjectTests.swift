import Reactive
import ReactiveTestSupport
import Testing

private struct Boom: Error, Equatable {}

@Suite("AnySubscriber(subject)")
struct AnySubscriberSubjectTests {
    @Test("values and finished reach the subject's subscribers")
    func forwards() {
        let subject = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        [1, 2, 3].publisher.subscribe(AnySubscriber(subject))
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C04 a failure reaches the subject's subscribers")
    func failure() {
        let subject = PassthroughSubject<Int, Boom>()
        let sub = TestSubscriber<Int, Boom>()
        subject.subscribe(sub)
        Fail<Int, Boom>(error: Boom()).subscribe(AnySubscriber(subject))
        #expect(sub.completion == .failure(Boom()))
    }

    @Test("C08 the subject asks upstream only once a subscriber has demand")
    func demand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = ManualPublisher<Int, Never>()
        upstream.subscribe(AnySubscriber(subject))
        #expect(upstream.last?.requested.isEmpty == true)
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        sub.cancel()
    }

    @Test("a CurrentValueSubject takes the latest value")
    func currentValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let sub = TestSubscriber<Int, Never>()
        subject.subscribe(sub)
        [5, 6].publisher.subscribe(AnySubscriber(subject))
        #expect(subject.value == 6)
        #expect(sub.values == [0, 5, 6])
    }
}
