import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryScan")
struct TryScanTests {
    @Test("running results and completion")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.tryScan(0, +)) == expectedEvents([1, 3, 6]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: ["value(1)"]) { source, check in
            source.tryScan(0) {
                try check($1); return $0 + $1
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryScan(0, +)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.tryScan(0, +), demand: .max(2))
        #expect(sub.values == [1, 3])
        sub.request(.max(2))
        #expect(sub.values == [1, 3, 6, 10])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryScan(0, +) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryScan(0) {
                token.touch(); return $0 + $1
            }
        }
    }
}
