import Reactive
import ReactiveTestSupport
import Testing

// Issue 41's report: Combine's `autoconnect()` disconnects only when its subscribers cancel, not
// when one completes, so a `share(replay:)` built on `multicast(…).autoconnect()` (as client
// libraries build it) subscribes upstream once where `Reactive` did three times. The reference
// suite's Autoconnect implementation, checked against Combine, counts a subscriber down only in
// its subscription's `cancel()`; its completion is forwarded and nothing else.
@Suite("Combine behaviour: autoconnect disconnects on cancel, not on completion")
struct AutoconnectCompletionTests {
    @Test("three subscribers of multicast(…).autoconnect() over a finishing source subscribe upstream once")
    func subscribesUpstreamOnce() {
        var subscriptions = 0
        let source = Deferred { () -> Publishers.Sequence<[Int], Never> in
            subscriptions += 1
            return [1, 2, 3].publisher
        }
        let shared = source.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        let third = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        shared.subscribe(third)
        #expect(subscriptions == 1)
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        // Later subscribers join the finished connection: the subject replays its completion.
        #expect(second.events == [.subscription, .finished])
        #expect(third.events == [.subscription, .finished])
    }

    @Test("share() over a finishing source subscribes upstream once for every later subscriber")
    func shareSubscribesOnce() {
        var subscriptions = 0
        let shared = Deferred { () -> Just<Int> in
            subscriptions += 1
            return Just(1)
        }.share()
        var received: [String] = []
        for name in ["a", "b", "c"] {
            _ = shared.sink(receiveCompletion: { _ in received.append("\(name) finished") }) {
                received.append("\(name) \($0)")
            }
        }
        #expect(subscriptions == 1)
        #expect(received == ["a 1", "a finished", "b finished", "c finished"])
    }

    @Test("once every subscriber has cancelled, the next subscriber connects again")
    func cancelStillDisconnects() {
        let upstream = ManualPublisher<Int, Never>()
        let auto = upstream.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
        let a = TestSubscriber<Int, Never>()
        auto.subscribe(a)
        upstream.send(completion: .finished)
        #expect(a.events == [.subscription, .finished])
        #expect(upstream.subscriberCount == 1)
        // The completed subscriber still holds the connection until it cancels.
        let b = TestSubscriber<Int, Never>()
        auto.subscribe(b)
        #expect(upstream.subscriberCount == 1)
        a.cancel()
        b.cancel()
        let c = TestSubscriber<Int, Never>()
        auto.subscribe(c)
        #expect(upstream.subscriberCount == 2)
        c.cancel()
    }
}
