import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: append and prepend")
struct ConcatenateTests {
    @Test("append and prepend values, sequences and publishers")
    func forms() {
        let sub = TestSubscriber<Int, Never>()
        Just(3).append(4, 5).append([6]).append(Just(7)).prepend(2).prepend([1]).prepend(Just(0)).subscribe(sub)
        #expect(sub.values == Array(0...7))
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("the suffix is subscribed only after the prefix finishes, with the outstanding demand")
    func suffixAfterPrefix() {
        let prefix = ManualPublisher<Int, TestError>()
        let suffix = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(5))
        prefix.append(suffix).subscribe(sub)
        #expect(prefix.last?.requested == [.max(5)])
        prefix.send(1)
        prefix.send(2)
        #expect(suffix.subscriberCount == 0)
        prefix.send(completion: .finished)
        #expect(suffix.last?.requested == [.max(3)])
        suffix.send(3)
        suffix.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test("a prefix failure ends everything; the suffix is never subscribed")
    func prefixFailure() {
        let suffix = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError()).append(suffix).subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError())])
        #expect(suffix.subscriberCount == 0)
    }

    @Test("C08 demand carries across the switch")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        (1...2).publisher.append(3...9).subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        sub.request(.max(2))
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.violations.isEmpty)
    }

    @Test("C18 cancel cancels the live phase")
    func cancel() {
        let prefix = ManualPublisher<Int, Never>()
        let suffix = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(sub)
        prefix.send(completion: .finished)
        sub.cancel()
        #expect(suffix.last?.isCancelled == true)
        suffix.send(1)
        suffix.send(completion: .finished)
        #expect(sub.events == [.subscription])
    }
}
