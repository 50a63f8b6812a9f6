import Reactive
import ReactiveTestSupport
import Testing

@Suite("measureInterval")
struct MeasureIntervalTests {
    @Test("each value becomes the time since the previous one (the first: since subscription)")
    func values() {
        let result = marbles("-a--b(cd)|", expected: "-1--3(10)|", format: { "\($0.nanoseconds / 10_000_000)" }) {
            source, scheduler in source.measureInterval(using: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C04 failures pass through")
    func failure() {
        let result = marbles("--a#", expected: "--2#", format: { "\($0.nanoseconds / 10_000_000)" }) {
            source, scheduler in source.measureInterval(using: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C09 demand passes through; C05 cancel stops values")
    func demandAndCancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType.Stride, Never>(initialDemand: .max(2))
        upstream.measureInterval(using: scheduler).subscribe(sub)
        #expect(upstream.last?.requested == [.max(2)])
        scheduler.advance(by: .seconds(2))
        upstream.send(1)
        #expect(sub.values == [.seconds(2)])
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        upstream.send(2)
        #expect(sub.values == [.seconds(2)])
    }
}
