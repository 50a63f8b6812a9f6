import Reactive
import ReactiveTestSupport
import Testing

@Suite("Publishers.interval")
struct IntervalTests {
    @Test("emits 0, 1, 2, … one per period, from subscription")
    func ticks() {
        let scheduler = VirtualTimeScheduler()
        let recorder = MarbleRecorder<Int, Never>(scheduler: scheduler)
        let cancellable = AnyCancellable(recorder)
        Publishers.interval(.milliseconds(20), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.diagram() == "--0-1-2-3-4")
        cancellable.cancel()
    }

    @Test("ticks keep their schedule (start + n × period) however time is advanced")
    func noDrift() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(by: .nanoseconds(3))
        let times = TimeTestLog()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, _ in
            times.append("\(scheduler.now.nanoseconds)")
            return .none
        }
        Publishers.interval(.nanoseconds(10), scheduler: scheduler).subscribe(sub)
        scheduler.advance(by: .nanoseconds(7))
        scheduler.advance(by: .nanoseconds(19))
        scheduler.advance(by: .nanoseconds(15))
        #expect(times.all == ["13", "23", "33", "43"])
        sub.cancel()
    }

    @Test("C08 a tick with no demand is dropped; its number is skipped")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(sub)
        scheduler.advance(by: .seconds(4))
        #expect(sub.values == [0, 1])
        sub.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(sub.values == [0, 1, 4])
        #expect(sub.violations.isEmpty)
        sub.cancel()
    }

    @Test("C18 cancel stops the timer and releases the subscriber")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(sub)
            scheduler.advance(by: .seconds(1))
            #expect(scheduler.pendingCount == 1)
            sub.cancel()
            #expect(scheduler.pendingCount == 0)
            scheduler.advance(by: .seconds(3))
            #expect(sub.values == [0])
        }
        #expect(weakSub == nil)
    }

    @Test("C21 cancel from inside receive stops the ticks")
    func cancelInside() {
        let scheduler = VirtualTimeScheduler()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, sub in
            if value == 2 { sub.cancel() }
            return .none
        }
        Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(sub)
        scheduler.advance(by: .seconds(10))
        #expect(sub.values == [0, 1, 2])
        #expect(scheduler.pendingCount == 0)
    }
}
