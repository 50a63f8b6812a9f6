import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: last()")
struct LastTests {
    @Test("publishes the last value when upstream finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.last()) == expectedEvents([3]))
        #expect(recordedEvents(Empty<Int, Never>().last()) == expectedEvents([]))
    }

    @Test("C04 failure passes through without a value")
    func failure() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.last())
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events.map(\.description) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the value until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "3") { $0.last() }
        expectReducer(sending: [], result: nil) { $0.last() }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.last() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.last() }
    }
}
