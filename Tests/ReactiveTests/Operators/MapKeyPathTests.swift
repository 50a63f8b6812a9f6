import Reactive
import ReactiveTestSupport
import Testing

private struct Point: Sendable { var x: Int; var y: Int; var z: Int }

@Suite("Operators: map(keyPath)")
struct MapKeyPathTests {
    private let points = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)]

    @Test("one, two and three key paths")
    func values() {
        #expect(recordedEvents(points.publisher.map(\.x)) == expectedEvents([1, 4]))
        #expect(recordedEvents(points.publisher.map(\.x, \.y)) == expectedEvents(["(1, 2)", "(4, 5)"]))
        #expect(recordedEvents(points.publisher.map(\.x, \.y, \.z)) == expectedEvents(["(1, 2, 3)", "(4, 5, 6)"]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Point, TestError>(error: TestError()).map(\.y)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected")
    func demand() {
        let sub = recordSubscriber((1...10).map { Point(x: $0, y: 0, z: 0) }.publisher.map(\.x, \.y), demand: .max(1))
        #expect(sub.values.count == 1)
        #expect(sub.violations == [])
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.map(\.magnitude) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle(capturing: false) { source, _ in source.map(\.magnitude) }
    }
}
