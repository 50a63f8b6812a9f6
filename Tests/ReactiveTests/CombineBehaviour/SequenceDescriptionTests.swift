import Reactive
import ReactiveTestSupport
import Testing

// Issue 41 (two reference tests regressed) and the reference suite's recorded behaviour
// (OpenCombine's SequenceTests.testSequenceNoInitialDemand, testCancelOnSubscription and
// testReflection, checked against Combine): a `Publishers.Sequence` subscription describes itself
// as the sequence while it is live, and as "Sequence" once it finished or was cancelled.
@Suite("Combine behaviour: a sequence subscription's description")
struct SequenceDescriptionTests {
    @Test("live, the subscription describes itself as the sequence")
    func liveDescribesTheSequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        var described: [String] = []
        subscriber.onSubscribe = { subscription, _ in described.append(String(describing: subscription)) }
        (1...5).publisher.subscribe(subscriber)
        #expect(described == ["1...5"])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
    }

    @Test("once finished, the subscription describes itself as \"Sequence\"")
    func finishedDescribesSequence() {
        var subscription: (any Subscription)?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subscriber.onSubscribe = { given, _ in subscription = given }
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscription.map { String(describing: $0) } == "[1, 2, 3]")
        subscriber.request(.max(3))
        #expect(subscriber.completion != nil)
        #expect(subscription.map { String(describing: $0) } == "Sequence")
    }

    @Test("once cancelled, the subscription describes itself as \"Sequence\"")
    func cancelledDescribesSequence() {
        var subscription: (any Subscription)?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subscriber.onSubscribe = { given, _ in subscription = given }
        [1, 2, 3].publisher.subscribe(subscriber)
        subscriber.cancel()
        #expect(subscription.map { String(describing: $0) } == "Sequence")
    }

}
