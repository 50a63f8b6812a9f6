import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: setFailureType")
struct SetFailureTypeTests {
    @Test("values and completion pass, with a new failure type")
    func values() {
        let publisher: Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError> = [1, 2].publisher.setFailureType(to: TestError.self)
        #expect(recordedEvents(publisher) == expectedEvents([1, 2]))
        #expect(recordedEvents(publisher.setFailureType(to: CancellationErrorLike.self)) == expectedEvents([1, 2]))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.setFailureType(to: TestError.self), demand: .max(3))
        #expect(sub.values == [1, 2, 3])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(failure: Never.self, wrapping: false) { $0.setFailureType(to: TestError.self) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.replaceError(with: 0).setFailureType(to: TestError.self) }
    }
}

private struct CancellationErrorLike: Error {}
