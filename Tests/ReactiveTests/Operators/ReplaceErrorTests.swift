import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: replaceError(with:)")
struct ReplaceErrorTests {
    @Test("replaces a failure with a value and finished")
    func values() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).replaceError(with: -1)) == expectedEvents([-1]))
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.replaceError(with: -1))
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test("a normal finish passes through")
    func finish() {
        #expect(recordedEvents([1, 2].publisher.setFailureType(to: TestError.self).replaceError(with: 0)) == expectedEvents([1, 2]))
    }

    @Test("C38 C13 the replacement is emitted only when demand > 0")
    func waitsForDemand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.replaceError(with: -1), demand: .max(1))
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events == [.subscription, .value(1)])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(1), .value(-1), .finished])
        #expect(sub.violations == [])
    }

    @Test("C05 a cancel while the replacement waits drops it")
    func cancelWhileWaiting() {
        let sub = recordSubscriber(Fail<Int, TestError>(error: TestError()).replaceError(with: -1), demand: .none)
        sub.cancel()
        sub.request(.max(1))
        #expect(sub.events == [.subscription])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.replaceError(with: 0) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.replaceError(with: 0) }
    }
}
