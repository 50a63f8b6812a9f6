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

    @Test("a tick without demand pauses the timer: nothing is scheduled until the next request, which re-arms it on the grid")
    func pausesWithoutDemand() {
        // Combine's Timer drops ticks nobody asked for; ticking them one by one made
        // `interval 1ns | take 2 | asyncMap delay 10` cost 10 million virtual actions.
        let scheduler = VirtualTimeScheduler()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.interval(.nanoseconds(10), scheduler: scheduler).subscribe(sub)
        scheduler.advance(by: .nanoseconds(15))
        #expect(sub.values == [0])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .nanoseconds(10))
        // The tick at 20 found no demand: dropped, and the timer stopped.
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.pendingCount == 0)
        // At 1_000_000_025 ns: ticks 1 … 100_000_001 are past (due at 20, 30, …); the next is
        // number 100_000_002, due at 1_000_000_030.
        sub.request(.max(1))
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .nanoseconds(4))
        #expect(sub.values == [0])
        scheduler.advance(by: .nanoseconds(1))
        #expect(sub.values == [0, 100_000_002])
        #expect(scheduler.now.nanoseconds == 1_000_000_030)
        #expect(sub.violations.isEmpty)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
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
