import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: reduce")
struct ReduceTests {
    @Test("publishes the final result, then finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.reduce(0, +)) == expectedEvents([6]))
        #expect(recordedEvents(Empty<Int, Never>().reduce(7, +)) == expectedEvents([7]))
    }

    @Test("C04 failure passes through without a result")
    func failure() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.reduce(0, +))
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events.map(\.description) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the result until demand")
    func demand() {
        expectReducer(sending: [1, 2, 3], result: "6") { $0.reduce(0, +) }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.reduce(0, +) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.reduce(0) {
                token.touch(); return $0 + $1
            }
        }
    }
}
