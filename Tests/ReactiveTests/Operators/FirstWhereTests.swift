import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: first(where:)")
struct FirstWhereTests {
    @Test("publishes the first match and finishes")
    func values() {
        #expect(recordedEvents([1, 2, 3, 4].publisher.first { $0 > 2 }) == expectedEvents([3]))
        #expect(recordedEvents([1, 2].publisher.first { $0 > 2 }) == expectedEvents([]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).first { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 asks for everything, holds the match until demand")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.first { $0 > 1 }, demand: .none)
        #expect(source.last?.requested == [.unlimited])
        source.send(1)
        source.send(2)
        #expect(source.last?.isCancelled == true)
        #expect(sub.events.map(\.description) == ["subscription"])
        sub.request(.max(1))
        #expect(sub.events.map(\.description) == expectedEvents([2]))
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.first { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.first { _ in
                token.touch(); return false
            }
        }
    }
}
