import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: collect()")
struct CollectTests {
    @Test("collects everything into one array")
    func values() {
        #expect(recordedEvents((1...3).publisher.collect()) == expectedEvents(["[1, 2, 3]"]))
        #expect(recordedEvents(Empty<Int, Never>().collect()) == expectedEvents(["[]"]))
    }

    @Test("C04 a failure discards what was collected")
    func failure() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.collect())
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events.map(\.description) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the array until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "[1, 2]") { $0.collect() }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.collect() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.collect() }
    }
}
