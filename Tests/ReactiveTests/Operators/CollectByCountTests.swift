import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: collect(count)")
struct CollectByCountTests {
    @Test("full arrays, then the rest on finish")
    func values() {
        #expect(recordedEvents((1...5).publisher.collect(2)) == expectedEvents(["[1, 2]", "[3, 4]", "[5]"]))
        #expect(recordedEvents((1...4).publisher.collect(2)) == expectedEvents(["[1, 2]", "[3, 4]"]))
        #expect(recordedEvents(Empty<Int, Never>().collect(3)) == expectedEvents([]))
    }

    @Test("C04 a failure discards the partial array")
    func failure() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.collect(2))
        source.send(1)
        source.send(completion: .failure(TestError()))
        #expect(sub.events.map(\.description) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 each array asked for is count values asked of upstream")
    func demand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.collect(3), demand: .max(2))
        #expect(source.last?.requested == [.max(6)])
        let sequence = recordSubscriber((1...10).publisher.collect(3), demand: .max(1))
        #expect(sequence.values == [[1, 2, 3]])
        sequence.request(.max(5))
        #expect(sequence.values == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
        #expect(sequence.completion == .finished)
        #expect(sub.violations == [] && sequence.violations == [])
    }

    @Test("C07 a count below 1 behaves as 1")
    func badCount() {
        #expect(recordedEvents([1, 2].publisher.collect(0)) == expectedEvents(["[1]", "[2]"]))
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.collect(2) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.collect(2) }
    }
}
