import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: collect()")
struct CollectTests {
    @Test("collects everything into one array")
    func values() {
        #expect(events((1...3).publisher.collect()) == expected(["[1, 2, 3]"]))
        #expect(events(Empty<Int, Never>().collect()) == expected(["[]"]))
    }

    @Test("C04 a failure discards what was collected")
    func failure() {
        let source = ManualPublisher<Int, TestError>()
        let sub = record(source.collect())
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events.map(\.description) == expected([], "failure(boom)"))
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
