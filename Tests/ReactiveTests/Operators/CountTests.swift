import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: count()")
struct CountTests {
    @Test("publishes how many values arrived")
    func values() {
        #expect(recordedEvents(["a", "b"].publisher.count()) == expectedEvents([2]))
        #expect(recordedEvents(Empty<Int, Never>().count()) == expectedEvents([0]))
    }

    @Test("C04 failure passes through without a count")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).count()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the count until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "3") { $0.count() }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.count() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.count() }
    }
}
