import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryContains(where:)")
struct TryContainsWhereTests {
    @Test("true at the first match, false at the end")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.tryContains { $0 > 2 }) == expectedEvents([true]))
        #expect(recordedEvents([1, 2].publisher.tryContains { $0 > 2 }) == expectedEvents([false]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryContains {
                try check($0); return false
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryContains { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the answer until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "false") { $0.tryContains { $0 > 2 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryContains { $0 > 2 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryContains { _ in
                token.touch(); return false
            }
        }
    }
}
