import Dispatch
import Reactive
import ReactiveTestSupport
import Testing

/// A thread-safe log of strings for scheduler tests.
final class TimeTestLog: Sendable {
    private let entries = Lock<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite("VirtualTimeScheduler")
struct VirtualTimeSchedulerTests {
    typealias Time = VirtualTimeScheduler.SchedulerTimeType

    @Test("C42 same-time actions run in enqueue order")
    func sameTimeOrder() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        for name in ["a", "b", "c"] {
            scheduler.schedule(after: Time(nanoseconds: 100)) { log.append(name) }
        }
        scheduler.schedule(after: Time(nanoseconds: 50)) { log.append("early") }
        scheduler.schedule { log.append("now") }
        scheduler.advance(by: .nanoseconds(100))
        #expect(log.all == ["now", "early", "a", "b", "c"])
        #expect(scheduler.now == Time(nanoseconds: 100))
    }

    @Test("C42 advance(to:) runs everything due, moves now to each action's time, and leaves now there")
    func advanceTo() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        scheduler.schedule(after: Time(nanoseconds: 10)) { log.append("10 at \(scheduler.now.nanoseconds)") }
        scheduler.schedule(after: Time(nanoseconds: 30)) { log.append("30 at \(scheduler.now.nanoseconds)") }
        scheduler.schedule(after: Time(nanoseconds: 31)) { log.append("31") }
        scheduler.advance(to: Time(nanoseconds: 30))
        #expect(log.all == ["10 at 10", "30 at 30"])
        #expect(scheduler.now.nanoseconds == 30)
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextDeadline == Time(nanoseconds: 31))
        scheduler.advance(by: .nanoseconds(5))
        #expect(scheduler.now.nanoseconds == 35)
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.nextDeadline == nil)
    }

    @Test("C42 past-due actions run without moving time back, after those already due now")
    func pastDue() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(by: .seconds(1))
        let log = TimeTestLog()
        scheduler.schedule(after: scheduler.now) { log.append("now \(scheduler.now)") }
        scheduler.schedule(after: Time(nanoseconds: 5)) { log.append("past \(scheduler.now)") }
        #expect(log.all.isEmpty)
        scheduler.advance(by: .zero)
        #expect(log.all == ["now 1s", "past 1s"])
        #expect(scheduler.now == Time(nanoseconds: 1_000_000_000))
        scheduler.advance(to: Time(nanoseconds: 3))
        #expect(scheduler.now == Time(nanoseconds: 1_000_000_000))
    }

    @Test("C42 cancelled repeating actions never run, and stop on cancel, also from inside the action")
    func repeatingCancel() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        let never = scheduler.schedule(after: Time(nanoseconds: 10), interval: .nanoseconds(10)) { log.append("never") }
        never.cancel()
        let ticks = Counter()
        let box = Lock<AnyCancellable?>(nil)
        let repeating = scheduler.schedule(after: Time(nanoseconds: 10), interval: .nanoseconds(10)) {
            log.append("tick \(scheduler.now.nanoseconds)")
            if ticks.increment() == 3 { box.withLock { $0 }?.cancel() }
        }
        box.withLock { $0 = AnyCancellable(repeating) }
        scheduler.advance(by: .nanoseconds(100))
        #expect(log.all == ["tick 10", "tick 20", "tick 30"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("C42 repeating actions keep their own schedule: start + n * interval")
    func repeatingNoDrift() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        let timer = scheduler.schedule(after: Time(nanoseconds: 7), interval: .nanoseconds(10)) {
            log.append("\(scheduler.now.nanoseconds)")
        }
        scheduler.advance(by: .nanoseconds(3))
        scheduler.advance(by: .nanoseconds(20))
        scheduler.advance(by: .nanoseconds(24))
        #expect(log.all == ["7", "17", "27", "37", "47"])
        timer.cancel()
    }

    @Test("C42 re-entrant advance raises the running loop's target and returns at once")
    func reentrantAdvance() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        scheduler.schedule(after: Time(nanoseconds: 10)) {
            scheduler.advance(by: .nanoseconds(20))
            log.append("inner advance returned at \(scheduler.now.nanoseconds)")
        }
        scheduler.schedule(after: Time(nanoseconds: 25)) { log.append("25") }
        scheduler.schedule(after: Time(nanoseconds: 40)) { log.append("40") }
        scheduler.advance(by: .nanoseconds(10))
        #expect(log.all == ["inner advance returned at 10", "25"])
        #expect(scheduler.now.nanoseconds == 30)
    }

    @Test("C42 actions scheduled from actions run in the same advance when due")
    func scheduleFromAction() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        scheduler.schedule(after: Time(nanoseconds: 10)) {
            scheduler.schedule { log.append("immediate at \(scheduler.now.nanoseconds)") }
            scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(5))) { log.append("later") }
            scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(50))) { log.append("too late") }
        }
        scheduler.advance(by: .nanoseconds(20))
        #expect(log.all == ["immediate at 10", "later"])
        #expect(scheduler.pendingCount == 1)
    }

    @Test("C42 run() runs until nothing is pending")
    func runAll() {
        let scheduler = VirtualTimeScheduler()
        let log = TimeTestLog()
        scheduler.schedule(after: Time(nanoseconds: 1_000)) {
            log.append("a")
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("b") }
        }
        scheduler.run()
        #expect(log.all == ["a", "b"])
        #expect(scheduler.now == Time(nanoseconds: 1_000_001_000))
    }

    @Test("100,000 actions in time order: scheduling and running stay linear")
    func many() {
        let scheduler = VirtualTimeScheduler()
        let counter = Counter()
        for index in 0..<100_000 {
            scheduler.schedule(after: Time(nanoseconds: Int64(index))) { counter.increment() }
        }
        scheduler.schedule(after: Time(nanoseconds: 5)) { counter.increment() }
        scheduler.run()
        #expect(counter.value == 100_001)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("C16 an action's captures are released once it has run, even while others are pending")
    func releasesRunActions() {
        final class Token: Sendable {}
        let scheduler = VirtualTimeScheduler()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            scheduler.schedule(after: Time(nanoseconds: 1)) { _ = token }
        }
        scheduler.schedule(after: Time(nanoseconds: 100)) {}
        scheduler.advance(by: .nanoseconds(10))
        #expect(weakToken == nil)
        #expect(scheduler.pendingCount == 1)
    }

    @Test("strides read as in Combine")
    func strides() {
        typealias Stride = VirtualTimeScheduler.SchedulerTimeType.Stride
        #expect(Stride.milliseconds(30).nanoseconds == 30_000_000)
        #expect(Stride.seconds(1.5).nanoseconds == 1_500_000_000)
        #expect(Stride.microseconds(2).nanoseconds == 2_000)
        let literal: Stride = 2
        #expect(literal == .seconds(2))
        let fraction: Stride = 0.25
        #expect(fraction == .milliseconds(250))
        #expect(Stride.milliseconds(10) * 3 == .milliseconds(30))
        #expect(Stride.milliseconds(10) + .milliseconds(5) - .milliseconds(3) == .milliseconds(12))
        #expect(-Stride.seconds(1) < .zero)
        #expect(Stride.seconds(Int.max) == Stride(nanoseconds: .max))
        #expect(Stride.milliseconds(1500).description == "1500ms")
        #expect(Stride.seconds(3).description == "3s")
        let dispatch: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(30)
        #expect(dispatch.magnitude == 30_000_000)
        #expect(DispatchQueue.SchedulerTimeType.Stride(.seconds(2)) == .seconds(2))
        let later = DispatchQueue.global().now.advanced(by: .seconds(1))
        #expect(DispatchQueue.global().now.distance(to: later) <= .seconds(1))
    }

    @Test("time operators read as in Combine on DispatchQueue (a compile check: nothing is subscribed)")
    func readsAsInCombine() {
        let queue = DispatchQueue.global()
        let pipeline = Just(1)
            .delay(for: .milliseconds(30), scheduler: queue)
            .debounce(for: .seconds(1), scheduler: queue)
            .throttle(for: 0.5, scheduler: queue, latest: true)
            .timeout(.milliseconds(500), scheduler: queue)
            .receive(on: queue)
            .subscribe(on: queue, options: .init(qos: .userInitiated))
            .collect(.byTimeOrCount(queue, .seconds(1), 10))
            .measureInterval(using: queue)
        _ = pipeline
        _ = Publishers.interval(.milliseconds(100), scheduler: queue)
    }

    @Test("ImmediateScheduler runs at once")
    func immediate() {
        let log = TimeTestLog()
        let scheduler = ImmediateScheduler.shared
        scheduler.schedule { log.append("a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { log.append("b") }
        _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append("c") }
        #expect(log.all == ["a", "b", "c"])
    }
}
