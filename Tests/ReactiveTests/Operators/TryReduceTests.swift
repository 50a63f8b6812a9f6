import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryReduce")
struct TryReduceTests {
    @Test("publishes the final result, then finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.tryReduce(0, +)) == expectedEvents([6]))
    }

    @Test("C33 a thrown error is one failure, no result")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryReduce(0) {
                try check($1); return $0 + $1
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryReduce(0, +)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the result until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "6") { $0.tryReduce(0, +) }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryReduce(0, +) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryReduce(0) {
                token.touch(); return $0 + $1
            }
        }
    }
}
