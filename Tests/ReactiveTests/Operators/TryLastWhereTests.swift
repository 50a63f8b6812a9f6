import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryLast(where:)")
struct TryLastWhereTests {
    @Test("publishes the last match when upstream finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3, 4].publisher.tryLast { $0 < 3 }) == expectedEvents([2]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryLast {
                try check($0); return true
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryLast { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the value until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "3") { $0.tryLast { _ in true } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryLast { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryLast { _ in
                token.touch(); return true
            }
        }
    }
}
