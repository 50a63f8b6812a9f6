import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: first()")
struct FirstTests {
    @Test("publishes the first value, finishes and cancels upstream")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.first()) == expectedEvents([1]))
        #expect(recordedEvents(Empty<Int, Never>().first()) == expectedEvents([]))
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.first())
        source.send(5)
        #expect(source.last?.cancelCount == 1)
        source.send(6)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([5]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).first()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 holds the value until demand")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.first(), demand: .none)
        #expect(source.last?.requested == [.unlimited])
        source.send(4)
        #expect(source.last?.isCancelled == true)
        #expect(sub.events.map(\.description) == ["subscription"])
        sub.request(.max(1))
        #expect(sub.events.map(\.description) == expectedEvents([4]))
        #expect(sub.violations == [])
    }

    @Test("C05 cancel while holding the value: nothing is delivered")
    func cancelWhileHolding() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.first(), demand: .none)
        source.send(4)
        sub.cancel()
        sub.request(.max(1))
        #expect(sub.events.map(\.description) == ["subscription"])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.first() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false, sendingValue: false) { source, _ in source.first() }
    }
}
