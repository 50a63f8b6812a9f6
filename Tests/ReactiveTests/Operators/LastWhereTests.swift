import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: last(where:)")
struct LastWhereTests {
    @Test("publishes the last match when upstream finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3, 4].publisher.last { $0 < 3 }) == expectedEvents([2]))
        #expect(recordedEvents([5, 6].publisher.last { $0 < 3 }) == expectedEvents([]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).last { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the value until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "2") { $0.last { $0 < 3 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.last { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.last { _ in
                token.touch(); return true
            }
        }
    }
}
