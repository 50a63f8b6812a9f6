import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: replaceNil(with:)")
struct ReplaceNilTests {
    @Test("replaces nil values")
    func values() {
        // Erased: on a `Publishers.Sequence` itself, Combine's eager specialisation keeps the
        // optional element type (SequenceSpecializationTests).
        #expect(recordedEvents([1, nil, 3].publisher.eraseToAnyPublisher().replaceNil(with: 0)) == expectedEvents([1, 0, 3]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int?, TestError>(error: TestError()).replaceNil(with: 0)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber([nil, nil, 1, nil].publisher.replaceNil(with: 0), demand: .max(2))
        #expect(sub.values == [0, 0])
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.map { Optional($0) }.replaceNil(with: 0) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.map { Optional($0) }.replaceNil(with: 0) }
    }
}
