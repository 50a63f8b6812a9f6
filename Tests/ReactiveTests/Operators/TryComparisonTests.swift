import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryMin, tryMax")
struct TryComparisonTests {
    @Test("publish the smallest and largest value")
    func values() {
        #expect(recordedEvents([3, 1, 2].publisher.tryMin { $0 < $1 }) == expectedEvents([1]))
        #expect(recordedEvents([3, 1, 2].publisher.tryMax { $0 < $1 }) == expectedEvents([3]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryMin {
                try check($1); try check($0); return $0 < $1
            }
        }
        expectThrowing(before: []) { source, check in
            source.tryMax {
                try check($1); try check($0); return $0 < $1
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryMax { $0 < $1 }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the result until demand")
    func demand() {
        expectReducer(sending: [2, 1, 3], result: "1") { $0.tryMin { $0 < $1 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryMax { $0 < $1 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryMax {
                token.touch(); return $0 < $1
            }
        }
    }
}
