import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: drop(while:)")
struct DropWhileTests {
    @Test("skips while the predicate holds, then passes everything")
    func values() {
        #expect(recordedEvents([1, 2, 5, 1].publisher.drop { $0 < 3 }) == expectedEvents([5, 1]))
        #expect(recordedEvents([1, 2].publisher.drop { $0 < 3 }) == expectedEvents([]))
    }

    @Test("the predicate is not called after it first fails")
    func stopsCalling() {
        var calls = 0
        _ = recordedEvents(
            [1, 5, 1, 1].publisher.drop {
                calls += 1; return $0 < 3
            })
        #expect(calls == 2)
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).drop { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.drop { $0 < 3 }, demand: .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(3) == .none)
        let sub = recordSubscriber((1...10).publisher.drop { $0 < 4 }, demand: .max(2))
        #expect(sub.values == [4, 5])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.drop { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.drop { _ in
                token.touch(); return true
            }
        }
    }
}
