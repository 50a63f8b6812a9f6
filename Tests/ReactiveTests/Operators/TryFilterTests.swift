import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryFilter")
struct TryFilterTests {
    @Test("values and completion")
    func values() {
        #expect(recordedEvents((1...6).publisher.tryFilter { $0.isMultiple(of: 2) }) == expectedEvents([2, 4, 6]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: ["value(1)"]) { source, check in
            source.tryFilter {
                try check($0); return true
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryFilter { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 a dropped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.tryFilter { $0 > 1 }, demand: .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .none)
        let sequence = recordSubscriber((1...10).publisher.tryFilter { $0 > 5 }, demand: .max(2))
        #expect(sequence.values == [6, 7])
        #expect(sub.violations == [] && sequence.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryFilter { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryFilter { _ in
                token.touch(); return true
            }
        }
    }
}
