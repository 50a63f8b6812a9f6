import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: removeDuplicates")
struct RemoveDuplicatesTests {
    @Test("skips a value equal to the one before")
    func values() {
        #expect(recordedEvents([1, 1, 2, 2, 1].publisher.removeDuplicates()) == expectedEvents([1, 2, 1]))
        #expect(recordedEvents(["a", "A", "b"].publisher.removeDuplicates { $0.lowercased() == $1.lowercased() }) == expectedEvents(["a", "b"]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).removeDuplicates()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 each skipped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.removeDuplicates(), demand: .max(1))
        #expect(source.send(1) == .none)
        #expect(source.send(1) == .max(1))
        let sub = recordSubscriber([1, 1, 1, 2, 2, 3].publisher.removeDuplicates(), demand: .max(2))
        #expect(sub.values == [1, 2])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.removeDuplicates() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.removeDuplicates { _, _ in
                token.touch(); return false
            }
        }
    }
}
