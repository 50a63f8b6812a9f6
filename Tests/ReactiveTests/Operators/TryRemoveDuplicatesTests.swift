import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryRemoveDuplicates(by:)")
struct TryRemoveDuplicatesTests {
    @Test("skips a value the predicate calls a duplicate")
    func values() {
        #expect(recordedEvents([1, 1, 2, 2, 1].publisher.tryRemoveDuplicates { $0 == $1 }) == expectedEvents([1, 2, 1]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: ["value(1)"]) { source, check in
            source.tryRemoveDuplicates {
                try check($1); return false
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryRemoveDuplicates { $0 == $1 }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.tryRemoveDuplicates { $0 == $1 }, demand: .max(1))
        #expect(source.send(1) == .none)
        #expect(source.send(1) == .max(1))
        let sub = recordSubscriber([1, 1, 1, 2, 2, 3].publisher.tryRemoveDuplicates { $0 == $1 }, demand: .max(2))
        #expect(sub.values == [1, 2])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryRemoveDuplicates { $0 == $1 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryRemoveDuplicates { _, _ in
                token.touch(); return false
            }
        }
    }
}
