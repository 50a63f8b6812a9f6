import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: allSatisfy")
struct AllSatisfyTests {
    @Test("false at the first miss (upstream cancelled), true at the end")
    func values() {
        #expect(recordedEvents([2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }) == expectedEvents([true]))
        #expect(recordedEvents([2, 3, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }) == expectedEvents([false]))
        #expect(recordedEvents(Empty<Int, Never>().allSatisfy { _ in false }) == expectedEvents([true]))
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.allSatisfy { $0 < 2 })
        source.send(5)
        #expect(source.last?.cancelCount == 1)
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).allSatisfy { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the answer until demand")
    func demand() {
        expectReducer(sending: [1, 2], result: "true") { $0.allSatisfy { $0 > 0 } }
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.allSatisfy { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.allSatisfy { _ in
                token.touch(); return true
            }
        }
    }
}
