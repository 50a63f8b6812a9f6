import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: contains(_:)")
struct ContainsTests {
    @Test("true at the first match (upstream cancelled), false at the end")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.contains(2)) == expectedEvents([true]))
        #expect(recordedEvents([1, 3].publisher.contains(2)) == expectedEvents([false]))
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.contains(2))
        source.send(2)
        #expect(source.last?.cancelCount == 1)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([true]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).contains(1)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the answer until demand")
    func demand() {
        expectReducer(sending: [1, 3], result: "false") { $0.contains(2) }
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.contains(2), demand: .none)
        source.send(2)
        #expect(sub.events.map(\.description) == ["subscription"])
        sub.request(.max(1))
        #expect(sub.events.map(\.description) == expectedEvents([true]))
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.contains(2) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.contains(99) }
    }
}
