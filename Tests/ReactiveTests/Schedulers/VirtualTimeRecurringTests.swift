import Reactive
import Testing

/// `hasRecurringAction`, which a virtual-time driver asks after every action (the horizon), is
/// kept as actions come and go rather than found by walking the queue (issue 41).
@Suite struct VirtualTimeRecurringTests {
    @Test("a repeating action counts once it has run, until it is cancelled; one-off actions never count")
    func recurringFollowsTicksAndCancel() {
        let scheduler = VirtualTimeScheduler()
        for i in 1...1_000 { scheduler.schedule(after: scheduler.now.advanced(by: .seconds(i))) {} }
        #expect(!scheduler.hasRecurringAction)
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100)), interval: .milliseconds(100)) {}
        #expect(!scheduler.hasRecurringAction)
        scheduler.advance(by: .milliseconds(150))
        #expect(scheduler.hasRecurringAction)
        scheduler.advance(by: .seconds(2))
        #expect(scheduler.hasRecurringAction)
        timer.cancel()
        #expect(!scheduler.hasRecurringAction)
        scheduler.advance(by: .seconds(2_000))
        #expect(!scheduler.hasRecurringAction)
        #expect(scheduler.pendingCount == 0)
    }
}
