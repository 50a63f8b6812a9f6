import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: assertNoFailure")
struct AssertNoFailureTests {
    @Test("values and completion pass")
    func values() {
        #expect(recordedEvents([1, 2].publisher.setFailureType(to: TestError.self).assertNoFailure()) == expectedEvents([1, 2]))
    }

    @Test("a failure stops the process")
    func traps() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, TestError>(error: TestError()).assertNoFailure("upstream").sink { _ in }
        }
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.setFailureType(to: TestError.self).assertNoFailure(), demand: .max(2))
        #expect(sub.values == [1, 2])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.assertNoFailure() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.assertNoFailure() }
    }
}
