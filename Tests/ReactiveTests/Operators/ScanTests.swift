import Reactive
import ReactiveTestSupport
import Testing

@Suite("Operators: scan")
struct ScanTests {
    @Test("running results and completion")
    func values() {
        #expect(recordedEvents([1, 2, 3].publisher.scan(0, +)) == expectedEvents([1, 3, 6]))
        #expect(recordedEvents(["a", "b"].publisher.scan("") { $0 + $1 }) == expectedEvents(["a", "ab"]))
    }

    @Test("C04 failure passes through")
    func failure() {
        #expect(recordedEvents(Fail<Int, TestError>(error: TestError()).scan(0, +)) == expectedEvents([], "failure(boom)"))
    }

    @Test("C08 demand is respected and additive")
    func demand() {
        let sub = recordSubscriber((1...10).publisher.scan(0, +), demand: .max(2))
        #expect(sub.values == [1, 3])
        sub.request(.max(1))
        #expect(sub.values == [1, 3, 6])
        #expect(sub.violations == [])
    }

    @Test("each subscription starts from the initial result")
    func independent() {
        let scan = [1, 2].publisher.scan(10, +)
        #expect(recordedEvents(scan) == expectedEvents([11, 13]))
        #expect(recordedEvents(scan) == expectedEvents([11, 13]))
    }

    @Test("cancel is forwarded upstream")
    func cancel() {
        expectCancellation(wrapping: false) { $0.scan(0, +) }
    }

    @Test("C19 lifecycle matrix")
    func lifecycle() {
        expectLifecycle { source, token in
            source.scan(0) {
                token.touch(); return $0 + $1
            }
        }
    }
}
