import Reactive
import ReactiveTestSupport
import Testing

/// `settle(draining:)` and `step(draining:)`: the hooks a paused run (`plumb`'s `:step`) moves
/// virtual time with, one instant at a time.
@Suite("VirtualTimeScheduler stepping")
struct VirtualTimeSteppingTests {
    typealias Time = VirtualTimeScheduler.SchedulerTimeType

    @Test("settle runs what is due now, and what that schedules now, without moving time")
    func settleStaysAtNow() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let log = TimeTestLog()
        scheduler.schedule {
            log.append("now")
            scheduler.schedule { log.append("also now") }
            scheduler.schedule(after: Time(nanoseconds: 10)) { log.append("later") }
        }
        #expect(scheduler.settle(draining: executor) == 2)
        #expect(log.all == ["now", "also now"])
        #expect(scheduler.now.nanoseconds == 0)
        #expect(scheduler.settle(draining: executor) == 0)
    }

    @Test("step goes to the next instant, runs every action due then, and stops there")
    func stepOneInstant() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let log = TimeTestLog()
        for (name, time) in [("a", 100), ("b", 100), ("c", 250)] {
            scheduler.schedule(after: Time(nanoseconds: Int64(time))) {
                log.append(name)
                if name == "b" { scheduler.schedule { log.append("b's follow-up") } }
            }
        }
        #expect(scheduler.step(draining: executor) == Time(nanoseconds: 100))
        #expect(log.all == ["a", "b", "b's follow-up"])
        #expect(scheduler.now.nanoseconds == 100)
        #expect(scheduler.step(draining: executor) == Time(nanoseconds: 250))
        #expect(log.all.last == "c")
        #expect(scheduler.step(draining: executor) == nil)
        #expect(scheduler.now.nanoseconds == 250)
    }

    @Test("a task sleeping on the virtual clock wakes at its instant's step, and its work after the sleep runs in that step")
    func stepRunsTasks() async {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let log = TimeTestLog()
        let task = Task(executorPreference: executor) {
            log.append("start")
            try? await clock.sleep(for: .nanoseconds(40))
            log.append("woke at \(scheduler.now.nanoseconds)")
        }
        scheduler.settle(draining: executor)
        #expect(log.all == ["start"])
        #expect(scheduler.step(draining: executor) == Time(nanoseconds: 40))
        #expect(log.all == ["start", "woke at 40"])
        await task.value
    }
}
