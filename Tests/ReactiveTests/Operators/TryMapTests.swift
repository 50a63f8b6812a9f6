import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryMap")
struct TryMapTests {
    @Test("values and completion")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.tryMap { $0 * 10 }) == expectedEvents([10, 20, 30]))
    }

    @Test("C33 a thrown error is one failure, upstream is cancelled, nothing follows")
    func thrown() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(
            source.tryMap { n -> Int in
                if n == 2 { throw TestError("two") }
                return n
            })
        source.send(1)
        source.send(2)
        #expect(source.last?.isCancelled == true)
        source.send(3)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([1], "failure(two)"))
        #expect(sub.violations == [])
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryMap { $0 }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.tryMap { $0 }, demand: .max(2))
        #expect(sub.values == [1, 2])
        sub.request(.max(1))
        #expect(sub.values == [1, 2, 3])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryMap { $0 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryMap {
                token.touch(); return $0
            }
        }
    }
}
