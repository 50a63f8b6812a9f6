import Reactive
import ReactiveTestSupport
import Synchronization
import Testing

@Suite("Stress: operators")
struct OperatorStressTests {
    @Test("C26 concurrent request and cancel through a stateful operator never corrupt state")
    func requestCancelThroughTryMap() {
        for _ in 0..<150 {
            let sub = TestSubscriber<Int, any Error>(initialDemand: .none)
            (0..<1000).publisher.tryMap { $0 }.tryFilter { _ in true }.subscribe(sub)
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

    @Test("C14 cancel from four threads at once runs cleanup exactly once")
    func concurrentCancel() {
        for _ in 0..<200 {
            let source = ManualPublisher<Int, TestError>()
            let cancels = Counter()
            let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            source.handleEvents(receiveCancel: { cancels.increment() }).reduce(0, +).subscribe(sub)
            let finished = runConcurrently(threads: 4) { _ in sub.cancel() }
            #expect(finished, "watchdog: threads did not finish")
            #expect(cancels.value == 1)
            #expect(source.last?.cancelCount == 1)
            #expect(sub.events.count == 1)
        }
    }

    @Test("C26 C28 a held result released by racing requests and a cancel arrives at most once")
    func heldResultRace() {
        for _ in 0..<300 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            (1...10).publisher.reduce(0, +).subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                if index == 0 { sub.cancel() } else { sub.request(.max(1)) }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            let events = sub.events
            #expect(events == [.subscription] || events == [.subscription, .value(55)] || events == [.subscription, .value(55), .finished])
        }
    }

    @Test("C26 values flowing on one thread while others request and cancel keep the grammar")
    func flowWhileCancelling() {
        for _ in 0..<100 {
            let sub = TestSubscriber<Int, Never>(initialDemand: .none)
            let cancels = Counter()
            (0..<600).publisher
                .scan(0) { $1 }
                .handleEvents(receiveCancel: { cancels.increment() })
                .prefix(500)
                .subscribe(sub)
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: sub.request(.unlimited)
                case 1: for _ in 0..<100 { sub.request(.max(5)) }
                case 2: for _ in 0..<100 { sub.request(.max(1)) }
                default: sub.cancel()
                }
            }
            #expect(finished, "watchdog: threads did not finish")
            #expect(sub.violations.isEmpty)
            #expect(sub.values == Array(0..<sub.values.count))
            #expect(sub.values.count <= 500)
            #expect(cancels.value <= 1)
        }
    }
}
