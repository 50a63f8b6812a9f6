import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryAllSatisfy")
struct TryAllSatisfyTests {
    @Test("false at the first miss, true at the end")
    func values() {
        #expect(recordedEvents([2, 4, 6].publisher.tryAllSatisfy { $0.isMultiple(of: 2) }) == expectedEvents([true]))
        #expect(recordedEvents([2, 3, 4].publisher.tryAllSatisfy { $0.isMultiple(of: 2) }) == expectedEvents([false]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryAllSatisfy {
                try check($0); return true
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryAllSatisfy { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the answer until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "true") { $0.tryAllSatisfy { $0 > 0 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryAllSatisfy { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryAllSatisfy { _ in
                token.touch(); return true
            }
        }
    }
}
