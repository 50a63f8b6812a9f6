import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: drop(while:)")
struct DropWhileTests {
    @Test("skips while the predicate holds, then passes everything")
    func values() {
        #expect(events([1, 2, 5, 1].publisher.drop { $0 < 3 }) == expected([5, 1]))
        #expect(events([1, 2].publisher.drop { $0 < 3 }) == expected([]))
    }

    @Test("the predicate is not called after it first fails")
    func stopsCalling() {
        var calls = 0
        _ = events([1, 5, 1, 1].publisher.drop { calls += 1; return $0 < 3 })
        #expect(calls == 2)
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(events(Fail<Int, TestError>(error: TestError()).drop { _ in true }) == expected([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = record(source.drop { $0 < 3 }, demand: .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(3) == .none)
        let sub = record((1...10).publisher.drop { $0 < 4 }, demand: .max(2))
        #expect(sub.values == [4, 5])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.drop { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in source.drop { _ in token.touch(); return true } }
    }
}
