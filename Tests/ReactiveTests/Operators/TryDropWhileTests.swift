import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryDrop(while:)")
struct TryDropWhileTests {
    @Test("skips while the predicate holds, then passes everything")
    func values() {
        #expect(recordedEvents([1, 2, 5, 1].publisher.tryDrop { $0 < 3 }) == expectedEvents([5, 1]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: []) { source, check in
            source.tryDrop {
                try check($0); return true
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryDrop { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.tryDrop { $0 < 3 }, demand: .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(3) == .none)
        let sub = recordSubscriber((1...10).publisher.tryDrop { $0 < 4 }, demand: .max(2))
        #expect(sub.values == [4, 5])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryDrop { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryDrop { _ in
                token.touch(); return true
            }
        }
    }
}
