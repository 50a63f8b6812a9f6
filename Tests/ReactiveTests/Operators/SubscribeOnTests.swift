import Reactive
import ReactiveTestSupport
import Testing

@Suite("subscribe(on:)")
struct SubscribeOnTests {
    @Test("subscribing, requests and cancel happen on the scheduler")
    func onScheduler() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(sub)
        #expect(upstream.subscriberCount == 0)
        scheduler.advance()
        #expect(upstream.subscriberCount == 1)
        #expect(sub.isSubscribed)
        // The subscriber's request was scheduled from inside that advance, and ran in it.
        #expect(upstream.last?.requested == [.max(2)])
        sub.request(.max(1))
        #expect(upstream.last?.requested == [.max(2)])
        scheduler.advance()
        #expect(upstream.last?.requested == [.max(2), .max(1)])
        upstream.send(1)
        #expect(sub.values == [1])
        sub.cancel()
        #expect(upstream.last?.isCancelled == false)
        upstream.send(2)
        #expect(sub.values == [1])
        scheduler.advance()
        #expect(upstream.last?.isCancelled == true)
    }

    @Test("values and completion pass through; C04 failures too")
    func passThrough() {
        let result = marbles("-a-b#", expected: "-a-b#") { source, scheduler in source.subscribe(on: scheduler) }
        #expect(result.passed, "\(result)")
        let sub = TestSubscriber<Int, Never>()
        (1...3).publisher.subscribe(on: ImmediateScheduler.shared).subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }
}
