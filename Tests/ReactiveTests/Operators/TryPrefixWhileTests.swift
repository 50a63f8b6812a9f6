import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryPrefix(while:)")
struct TryPrefixWhileTests {
    @Test("passes values while the predicate holds, then finishes")
    func values() {
        #expect(recordedEvents([1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }) == expectedEvents([1, 2]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: ["value(1)"]) { source, check in
            source.tryPrefix {
                try check($0); return true
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryPrefix { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.tryPrefix { $0 < 5 }, demand: .max(3))
        #expect(sub.values == [1, 2, 3])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryPrefix { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryPrefix { _ in
                token.touch(); return true
            }
        }
    }
}
