import Foundation
import Reactive
import ReactiveTestSupport
import Testing

// Issue #20 item 9. Combine fact (the OpenCombine project's autoconnect re-entrancy test, checked
// against Apple's Combine): a subscriber that subscribes again from inside
// `receive(subscription:)` while the first subscription is being set up makes Combine connect
// twice, and only one of the two connections is ever cancelled. That leaks a connection, so
// `Reactive` connects once (see "Coming from Combine").
@Suite("Combine behaviour: autoconnect re-entrancy")
struct AutoconnectReentrancyTests {
    @Test("a subscription made from inside receive(subscription:) shares the one connection")
    func oneConnect() {
        let upstream = ManualPublisher<Int, Never>()
        var connects = 0
        let connectable = Deferred { () -> ManualPublisher<Int, Never> in
            connects += 1
            return upstream
        }.multicast { PassthroughSubject<Int, Never>() }
        let auto = connectable.autoconnect()
        let inner = TestSubscriber<Int, Never>()
        let outer = TestSubscriber<Int, Never>()
        outer.onSubscribe = { _, _ in auto.subscribe(inner) }
        auto.subscribe(outer)
        #expect(connects == 1)
        upstream.send(5)
        #expect(outer.values == [5])
        #expect(inner.values == [5])
        outer.cancel()
        #expect(upstream.last?.isCancelled == false, "the inner subscriber still holds the connection")
        inner.cancel()
        #expect(upstream.last?.isCancelled == true)
    }
}

// Issue #20 item 13: two known Combine bugs, documented in "Coming from Combine" and not copied.
// Combine's `Timer.publish(every:tolerance:…)` drops the tolerance (its `tolerance` is nil), and
// its `Just.output(in:)` publishes the value for any range whose lower bound is 0, the empty
// `0..<0` too (the OpenCombine project notes both against Apple's Combine).
@Suite("Combine behaviour: known Combine bugs not copied")
struct CombineBugsNotCopiedTests {
    @Test("Timer.publish keeps the tolerance it was given")
    func timerKeepsTolerance() {
        let timer = Timer.publish(every: 1, tolerance: 0.25, on: RunLoop.current, in: .default)
        #expect(timer.tolerance == 0.25)
    }

    @Test("Just.output(in:) publishes the value only when the range contains index 0")
    func justOutputInRange() {
        #expect(Just(7).output(in: 0..<1).output == 7)
        #expect(Just(7).output(in: 0...).output == 7)
        #expect(Just(7).output(in: 0..<0).output == nil)
        #expect(Just(7).output(in: 1..<3).output == nil)
    }
}

// Issue #20 item 6. Combine fact: `Optional<Int>.none.publisher.collect()` is
// `Optional.Publisher([])` and emits `[]`, like the general `collect()` of an empty upstream.
// Source: Apple's `Optional.Publisher.collect()` reference and the OpenCombine project's
// Optional.Publisher specialization tests, checked against Apple's Combine.
@Suite("Combine behaviour: Optional.Publisher.collect")
struct OptionalCollectTests {
    @Test("Optional.none.publisher.collect() emits []")
    func noneCollectsEmptyArray() {
        let collected = Optional<Int>.none.publisher.collect()
        #expect(collected.output == [])
        let sub = TestSubscriber<[Int], Never>()
        collected.subscribe(sub)
        #expect(sub.events == [.subscription, .value([]), .finished])
        #expect(Optional(4).publisher.collect().output == [4])
    }
}
