import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryFirst(where:)")
struct TryFirstWhereTests {
    @Test("publishes the first match and finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3, 4].publisher.tryFirst { $0 > 2 }) == expectedEvents([3]))
        #expect(recordedEvents([1, 2].publisher.tryFirst { $0 > 2 }) == expectedEvents([]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryFirst {
                try check($0); return false
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryFirst { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the match until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "1") { $0.tryFirst { _ in true } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryFirst { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryFirst { _ in
                token.touch(); return false
            }
        }
    }
}
