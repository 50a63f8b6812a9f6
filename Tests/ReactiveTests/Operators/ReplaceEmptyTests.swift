import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: replaceEmpty(with:)")
struct ReplaceEmptyTests {
    @Test("publishes the replacement only for an empty upstream")
    func values() {
        #expect(recordedEvents(Empty<Int, Never>().replaceEmpty(with: 0)) == expectedEvents([0]))
        #expect(recordedEvents([1, 2].publisher.replaceEmpty(with: 0)) == expectedEvents([1, 2]))
    }

    @Test("C04 failure passes through, without the replacement")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).replaceEmpty(with: 0)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C03 the replacement waits for demand; values respect demand")
    func demand() {
        let sub = recordSubscriber(Empty<Int, Never>().replaceEmpty(with: 7), demand: .none)
        #expect(sub.events.map(\.description) == ["subscription"])
        sub.request(.max(1))
        #expect(sub.events.map(\.description) == expectedEvents([7]))
        let many = recordSubscriber((1...10).publisher.replaceEmpty(with: 0), demand: .max(2))
        #expect(many.values == [1, 2])
        #expect(sub.violations == [] && many.violations == [])
    }

    @Test("C08 only the downstream's demand goes upstream, never an .unlimited of its own (a deliberate difference from Combine)")
    func forwardsDownstreamDemand() {
        let source = ManualPublisher<Int, TestError>()
        let sub = recordSubscriber(source.replaceEmpty(with: 0), demand: .max(2))
        #expect(source.last?.requested == [.max(2)])
        source.send(1)
        source.send(2)
        sub.request(.max(1))
        #expect(source.last?.requested == [.max(2), .max(1)])
        source.send(3)
        source.send(completion: .finished)
        #expect(sub.events.map(\.description) == expectedEvents([1, 2, 3]))
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream, nothing after")
    func cancel() {
        expectCancellation(wrapping: true) { $0.replaceEmpty(with: 0) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.replaceEmpty(with: 0) }
    }
}
