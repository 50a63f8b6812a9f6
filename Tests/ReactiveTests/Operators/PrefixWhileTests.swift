import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: prefix(while:)")
struct PrefixWhileTests {
    @Test("passes values while the predicate holds, then finishes and cancels upstream")
    func values() {
        #expect(recordedEvents([1, 2, 5, 1].publisher.prefix { $0 < 3 }) == expectedEvents([1, 2]))
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.prefix { $0 < 3 })
        source.send(1)
        source.send(4)
        #expect(source.last?.cancelCount == 1)
        source.send(2)
        #expect(sub.events.map(\.description) == expectedEvents([1]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).prefix { _ in true }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.prefix { $0 < 5 }, demand: .max(2))
        #expect(sub.values == [1, 2])
        sub.request(.unlimited)
        #expect(sub.values == [1, 2, 3, 4])
        #expect(sub.completion == .finished)
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.prefix { _ in true } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.prefix { _ in
                token.touch(); return true
            }
        }
    }
}
