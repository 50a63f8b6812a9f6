import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: contains(where:)")
struct ContainsWhereTests {
    @Test("true at the first match, false at the end")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.contains { $0 > 2 }) == expectedEvents([true]))
        #expect(recordedEvents([1, 2].publisher.contains { $0 > 2 }) == expectedEvents([false]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).contains { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the answer until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "false") { $0.contains { $0 > 2 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.contains { $0 > 2 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.contains { _ in
                token.touch(); return false
            }
        }
    }
}
