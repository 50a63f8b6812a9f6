import Reactive
import ReactiveTestSupport
import Testing

@Suite("delay")
struct DelayTests {
    @Test(
        "C39 values and the completion arrive exactly `interval` later, in order",
        arguments: [
            ("-a-b-|", "---a-b-|"),
            ("ab(cd)|", "--ab(cd)|"),
            ("|", "--|"),
        ])
    func values(input: String, expected: String) {
        let result = marbles(input, expected: expected) { source, scheduler in
            source.delay(for: .milliseconds(20), scheduler: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C39 a failure is delayed too, after the values before it")
    func failureDelayed() {
        let result = marbles("-a#", expected: "---a#") { source, scheduler in
            source.delay(for: .milliseconds(20), scheduler: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C09 demand passes straight upstream, plus what receive returns")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sub.onValue = { value, _ in value == 1 ? .max(3) : .none }
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        #expect(upstream.last?.requested == [.max(2)])
        upstream.send(1)
        upstream.send(2)
        #expect(sub.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(sub.values == [1, 2])
        #expect(upstream.last?.requested == [.max(2), .max(3)])
        #expect(sub.violations.isEmpty)
    }

    @Test("C39 cancel cancels every pending timer and delivers nothing more")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(scheduler.pendingCount == 3)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.last?.isCancelled == false)  // upstream had already finished
        scheduler.advance(by: .seconds(5))
        #expect(sub.events == [.subscription])
    }

    @Test("C16 cancel releases the subscriber")
    func releases() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(sub)
            upstream.send(1)
            sub.cancel()
        }
        #expect(upstream.last?.isCancelled == true)
        scheduler.run()
        #expect(weakSub == nil)
    }

    @Test("C05 nothing is delivered after cancel, also from a value already due")
    func cancelInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, sub in
            sub.cancel()
            return .none
        }
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(sub.values == [1])
        #expect(sub.violations.isEmpty)
    }

    @Test("C05 a completion already scheduled is not delivered after a downstream cancel (Combine delivers it; Reactive keeps nothing after cancel)")
    func scheduledCompletionAfterCancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, sub in
            sub.cancel()
            return .none
        }
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(completion: .finished)
        // The value and the completion are due at the same virtual time; the value's receive cancels.
        scheduler.advance(by: .seconds(5))
        #expect(sub.events == [.subscription, .value(1)])
        #expect(sub.violations.isEmpty)
    }
}
