import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: mapError")
struct MapErrorTests {
    @Test("values pass, the failure is transformed")
    func values() {
        #expect(recordedEvents([1, 2].publisher.setFailureType(to: TestError.self).mapError { TestError("x" + $0.message) }) == expectedEvents([1, 2]))
        let mapped = Fail<Int, TestError>(error: TestError()).mapError { TestError("mapped " + $0.message) }
        #expect(recordedEvents(mapped) == expectedEvents([], "failure(mapped boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.setFailureType(to: TestError.self).mapError { $0 }, demand: .max(3))
        #expect(sub.values == [1, 2, 3])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.mapError { TestError($0.message) } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.mapError {
                token.touch(); return $0
            }
        }
    }
}
