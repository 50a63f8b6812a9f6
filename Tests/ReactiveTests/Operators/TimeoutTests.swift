import Reactive
import ReactiveTestSupport
import Testing

@Suite("timeout")
struct TimeoutTests {
    @Test(
        "C39 finishes after `interval` of silence, counted from subscription and from each value",
        arguments: [
            ("-a-b----c|", "-a-b--|"),
            ("-----a", "---|"),
            ("-a|", "-a|"),
            ("-a-#", "-a-#"),
        ])
    func values(input: String, expected: String) {
        let result = marbles(input, expected: expected) { source, scheduler in
            source.timeout(.milliseconds(30), scheduler: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C04 customError fails instead of finishing")
    func customError() {
        let result = marbles("-a-b----c|", expected: "-a-b--#") { source, scheduler in
            source.timeout(.milliseconds(30), scheduler: scheduler, customError: { TestError("late") })
        }
        #expect(result.passed, "\(result)")
    }

    @Test("a timeout cancels upstream")
    func cancelsUpstream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler, customError: { TestError("late") }).subscribe(sub)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.last?.isCancelled == true)
        #expect(sub.events == [.subscription, .failure(TestError("late"))])
    }

    @Test("C09 demand passes straight upstream")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(2) }
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(sub)
        #expect(upstream.last?.requested == [.max(1)])
        upstream.send(1)
        scheduler.advance(by: .zero)
        #expect(sub.values == [1])
        #expect(upstream.last?.requested == [.max(1), .max(2)])
    }

    @Test("C39 cancel cancels the timer")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(sub)
        #expect(scheduler.pendingCount == 1)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.last?.isCancelled == true)
        scheduler.advance(by: .seconds(5))
        #expect(sub.events == [.subscription])
    }
}
