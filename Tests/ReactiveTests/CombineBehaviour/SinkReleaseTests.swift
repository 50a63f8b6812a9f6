import Reactive
import ReactiveTestSupport
import Testing

/// An object whose release the test watches through a weak reference.
private final class SinkWitness {}

// Issue #20 item 7. Combine facts: `Subscribers.Sink` releases its closures when a completion
// arrives, also one that arrives before any subscription; a `cancel()` before any subscription
// does nothing (there is no subscription to cancel), so the closures stay and a subscription that
// comes later is taken. Source: the OpenCombine project's Sink lifecycle tests, checked against
// Apple's Combine.
@Suite("Combine behaviour: Sink releases its closures")
struct SinkReleaseTests {
    // `prefix(untilOutputFrom:)` sends such a completion in Combine when its trigger fires first.
    @Test("a completion before any subscription is delivered and releases the closures")
    func completionBeforeSubscriptionReleases() {
        weak var watched: SinkWitness?
        var calls = 0
        let sink: Subscribers.Sink<Int, Never>
        do {
            let witness = SinkWitness()
            watched = witness
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(witness) { calls += 1 } },
                receiveValue: { _ in withExtendedLifetime(witness) { calls += 1 } })
        }
        #expect(watched != nil)
        sink.receive(completion: .finished)
        #expect(watched == nil, "released while the sink is still referenced")
        #expect(calls == 1, "the completion closure ran once")
        sink.receive(completion: .finished)
        #expect(calls == 1)
        let late = ManualPublisher<Int, Never>.ManualSubscription()
        sink.receive(subscription: late)
        #expect(late.isCancelled, "the sink is over")
        withExtendedLifetime(sink) {}
    }

    @Test("a cancel before any subscription keeps the closures, and a later subscription is taken")
    func cancelBeforeSubscriptionKeeps() {
        weak var watched: SinkWitness?
        var seen: [Int] = []
        let sink: Subscribers.Sink<Int, Never>
        do {
            let witness = SinkWitness()
            watched = witness
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(witness) {} },
                receiveValue: { value in withExtendedLifetime(witness) { seen.append(value) } })
        }
        sink.cancel()
        #expect(watched != nil, "kept: there was nothing to cancel")
        let upstream = ManualPublisher<Int, Never>()
        upstream.subscribe(sink)
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(1)
        #expect(seen == [1])
        sink.cancel()
        #expect(upstream.last?.isCancelled == true)
        #expect(watched == nil)
        withExtendedLifetime(sink) {}
    }
}
