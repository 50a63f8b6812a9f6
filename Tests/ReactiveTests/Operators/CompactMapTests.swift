import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: compactMap")
struct CompactMapTests {
    @Test("values and completion")
    func values() {
        #expect(recordedEvents(["1", "x", "3"].publisher.compactMap { Int($0) }) == expectedEvents([1, 3]))
        #expect(recordedEvents([1, 2, 3].publisher.compactMap { $0 == 2 ? nil : $0 }.compactMap { $0 * 2 }) == expectedEvents([2, 6]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).compactMap { $0 }) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 a dropped value asks upstream for one more")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.compactMap { n -> Int? in n.isMultiple(of: 2) ? n : nil }, demand: .max(2))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .none)
        let sequence = recordSubscriber((1...10).publisher.compactMap { n -> Int? in n.isMultiple(of: 3) ? n : nil }, demand: .max(2))
        #expect(sequence.values == [3, 6])
        #expect(sub.violations == [] && sequence.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.compactMap { $0 } }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.compactMap {
                token.touch(); return $0
            }
        }
    }
}
