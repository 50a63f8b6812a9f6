import Testing
import Reactive
import ReactiveTestSupport

@Suite("Stress: Sequence", .timeLimit(.minutes(1)))
struct SequenceStressTests {
    @Test("C26 concurrent request and cancel from four threads never corrupt state")
    func concurrentRequestCancel() {
        for _ in 0..<200 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<1000).publisher.subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                if index == 3 {
                    sub.cancel()
                } else {
                    for _ in 0..<50 { sub.request(.max(3)) }
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            #expect(sub.values == Array(0..<sub.values.count))
        }
    }
}
