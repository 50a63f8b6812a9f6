import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: tryCompactMap")
struct TryCompactMapTests {
    @Test("values and completion")
    func values() {
        #expect(recordedEvents(["1", "x", "3"].publisher.tryCompactMap { Int($0) }) == expectedEvents([1, 3]))
    }

    @Test("C33 a thrown error is one failure")
    func thrown() {
        expectThrowing(before: ["value(1)"]) { source, check in
            source.tryCompactMap {
                try check($0); return $0
            }
        }
    }

    @Test("C04 upstream failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).tryCompactMap { $0 }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 a dropped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.tryCompactMap { n -> Int? in n.isMultiple(of: 2) ? n : nil }, demand: .max(2))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .none)
        let sequence = recordSubscriber((1...10).publisher.tryCompactMap { n -> Int? in n.isMultiple(of: 3) ? n : nil }, demand: .max(2))
        #expect(sequence.values == [3, 6])
        #expect(sub.violations == [] && sequence.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.tryCompactMap { $0 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.tryCompactMap {
                token.touch(); return $0
            }
        }
    }
}
