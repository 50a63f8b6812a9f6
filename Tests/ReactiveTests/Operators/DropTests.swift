import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: dropFirst(_:)")
struct DropTests {
    @Test("skips the first values")
    func values() {
        #expect(recordedEvents((1...5).publisher.dropFirst(2)) == expectedEvents([3, 4, 5]))
        #expect(recordedEvents((1...3).publisher.dropFirst()) == expectedEvents([2, 3]))
        #expect(recordedEvents((1...3).publisher.dropFirst(5)) == expectedEvents([]))
        #expect(recordedEvents((1...2).publisher.dropFirst(0)) == expectedEvents([1, 2]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).dropFirst()) == expectedEvents([], "failure(boom)"))
    }

    @Test("C09 the first request asks upstream for the dropped count too; skipped values ask nothing more (Combine)")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let counted = recordSubscriber(source.dropFirst(2), demand: .max(1))
        #expect(source.last?.requested == [.max(3)])
        #expect(source.send(1) == .none)
        #expect(source.send(2) == .none)
        #expect(source.send(3) == .none)
        counted.request(.max(4))
        #expect(source.last?.requested == [.max(3), .max(4)], "later requests pass as they are")
        let sub = recordSubscriber((1...10).publisher.dropFirst(3), demand: .max(2))
        #expect(sub.values == [4, 5])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.dropFirst() }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.dropFirst() }
    }
}
