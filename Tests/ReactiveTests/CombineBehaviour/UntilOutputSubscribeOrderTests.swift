import Reactive
import ReactiveTestSupport
import Testing

// Issue #20 items 2 and 3. Combine facts, from the OpenCombine project's DropUntilOutput and
// PrefixUntilOutput tests (checked by their authors against Apple's Combine):
// - `drop(untilOutputFrom:)` subscribes to upstream even when the trigger already finished
//   without a value (the output is over), and cancels upstream's subscription when it arrives;
// - `prefix(untilOutputFrom:)` subscribes to the trigger first and hands the subscriber its
//   subscription only when upstream's subscription arrives; a trigger that emits before then
//   finishes the subscriber with `.finished` alone, and upstream's subscription is cancelled.
@Suite("Combine behaviour: drop/prefix(untilOutputFrom:) subscribe upstream as Combine does")
struct UntilOutputSubscribeOrderTests {
    @Test("drop: a trigger that finished at once still lets upstream be subscribed (its side effects run), then cancelled")
    func dropSubscribesUpstreamAfterTriggerFinished() {
        var deferredRan = 0
        let upstream = ManualPublisher<Int, Never>()
        let source = Deferred { () -> ManualPublisher<Int, Never> in
            deferredRan += 1
            return upstream
        }
        let sub = TestSubscriber<Int, Never>()
        source.drop(untilOutputFrom: Empty<Int, Never>()).subscribe(sub)
        #expect(deferredRan == 1, "upstream was subscribed")
        #expect(upstream.last?.isCancelled == true)
        #expect(upstream.last?.requested == [])
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("drop: a trigger that finishes before upstream's subscription arrives: that subscription is cancelled")
    func dropTriggerFinishesBeforeUpstreamSubscription() {
        let upstream = LoosePublisher<Int, Never>()
        let trigger = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(sub)
        trigger.send(completion: .finished)
        #expect(sub.events == [.subscription, .finished])
        let late = upstream.subscribeNow()
        #expect(late.isCancelled)
        #expect(late.requested == [])
    }

    @Test("prefix: the subscriber gets its subscription when upstream's arrives, after the trigger is subscribed")
    func prefixSubscriptionComesWithUpstreams() {
        let upstream = LoosePublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.prefix(untilOutputFrom: trigger).subscribe(sub)
        #expect(trigger.last?.requested == [.max(1)], "the trigger is subscribed first")
        #expect(sub.events == [], "no subscription before upstream's")
        let subscription = upstream.subscribeNow()
        #expect(sub.events == [.subscription])
        #expect(subscription.requested == [.max(2)])
        upstream.send(1)
        trigger.send(0)
        #expect(sub.events == [.subscription, .value(1), .finished])
        #expect(subscription.isCancelled)
    }

    @Test("prefix: a trigger that emits before upstream's subscription finishes the subscriber without a subscription")
    func prefixTriggerBeforeUpstreamSubscription() {
        let upstream = LoosePublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: Just(0)).subscribe(sub)
        #expect(sub.events == [.finished])
        let late = upstream.subscribeNow()
        #expect(late.isCancelled)
        #expect(late.requested == [])
        #expect(sub.events == [.finished])
    }

    @Test("prefix: a sink sees that finish (its completion closure runs)")
    func prefixTriggerBeforeUpstreamSink() {
        var finished = false
        let c = Just(1).prefix(untilOutputFrom: Just(0))
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { _ in })
        #expect(finished)
        _ = c
    }
}
