import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: ignoreOutput")
struct IgnoreOutputTests {
    @Test("passes only the completion")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.ignoreOutput()) == expectedEvents([]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).ignoreOutput()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks upstream for everything and completes with zero downstream demand")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.ignoreOutput(), demand: .none)
        #expect(source.last?.requested == [.unlimited])
        source.send(1)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([]))
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.ignoreOutput() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.ignoreOutput() }
    }
}
