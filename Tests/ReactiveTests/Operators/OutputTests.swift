import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: prefix(_:), output(at:), output(in:)")
struct OutputTests {
    @Test("picks values by position and finishes")
    func values() {
        #expect(recordedEvents((1...10).publisher.prefix(3)) == expectedEvents([1, 2, 3]))
        #expect(recordedEvents([1, 2].publisher.prefix(5)) == expectedEvents([1, 2]))
        #expect(recordedEvents(["a", "b", "c"].publisher.output(at: 1)) == expectedEvents(["b"]))
        #expect(recordedEvents((0...9).publisher.output(in: 2...4)) == expectedEvents([2, 3, 4]))
        #expect(recordedEvents((0...9).publisher.output(in: 7...)) == expectedEvents([7, 8, 9]))
        #expect(recordedEvents((0...9).publisher.output(in: ..<2)) == expectedEvents([0, 1]))
    }

    @Test("prefix(0) finishes at once and cancels upstream")
    func empty() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.prefix(0))
        #expect(source.last?.isCancelled == true)
        source.send(1)
        #expect(sub.events.map(\.description) == expectedEvents([]))
        #expect(sub.violations == [])
    }

    @Test("finishing early cancels upstream; nothing after")
    func early() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.output(at: 1))
        source.send(1)
        #expect(source.last?.isCancelled == false)
        source.send(2)
        #expect(source.last?.cancelCount == 1)
        source.send(3)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([2]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).prefix(2)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C13 skipped positions ask upstream for one more; demand is respected")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        _ = recordSubscriber(source.output(in: 2...5), demand: .max(1))
        #expect(source.send(0) == .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .none)
        let sub = recordSubscriber((0...9).publisher.output(in: 2...5), demand: .max(2))
        #expect(sub.values == [2, 3])
        sub.request(.max(5))
        #expect(sub.values == [2, 3, 4, 5])
        #expect(sub.completion == .finished)
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.prefix(3) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.prefix(10) }
    }
}
