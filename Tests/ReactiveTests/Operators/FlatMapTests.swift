import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: flatMap")
struct FlatMapTests {
    @Test("values of every inner publisher, then finished")
    func values() {
        let sub = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(sub)
        #expect(sub.events == [.subscription, .value(1), .value(10), .value(2), .value(20), .value(3), .value(30), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C34 first upstream request is k; never more than k inners; each inner completion asks for one more")
    func maxPublishers() {
        let upstream = ManualPublisher<Int, TestError>()
        let inners = (0..<4).map { _ in ManualPublisher<Int, TestError>() }
        let sub = TestSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(sub)
        #expect(upstream.last?.requested == [.max(2)])
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].subscriberCount == 1)
        #expect(inners[1].subscriberCount == 1)
        inners[1].send(7)
        inners[1].send(completion: .finished)
        #expect(upstream.last?.requested == [.max(2), .max(1)])
        upstream.send(2)
        #expect(inners[2].subscriberCount == 1)
        #expect(inners[3].subscriberCount == 0)
        upstream.send(completion: .finished)
        #expect(sub.completion == nil, "inners 0 and 2 still run")
        inners[0].send(completion: .finished)
        // The upstream finished, so no refill is asked of it.
        #expect(upstream.last?.requested == [.max(2), .max(1)])
        #expect(sub.completion == nil)
        inners[2].send(8)
        inners[2].send(completion: .finished)
        #expect(sub.events == [.subscription, .value(7), .value(8), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("C34 completes only after the upstream and every inner finish")
    func completesAfterAll() {
        let upstream = ManualPublisher<Int, TestError>()
        let inner = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in inner }.subscribe(sub)
        upstream.send(1)
        inner.send(completion: .finished)
        #expect(sub.completion == nil)
        upstream.send(completion: .finished)
        #expect(sub.completion == .finished)
    }

    @Test("C34 an inner failure cancels the upstream and the other inners")
    func innerFailureCancelsAll() {
        let upstream = ManualPublisher<Int, TestError>()
        let inners = (0..<2).map { _ in ManualPublisher<Int, TestError>() }
        let sub = TestSubscriber<Int, TestError>()
        upstream.flatMap { inners[$0] }.subscribe(sub)
        upstream.send(0)
        upstream.send(1)
        inners[0].send(completion: .failure(TestError("inner")))
        #expect(sub.events == [.subscription, .failure(TestError("inner"))])
        #expect(upstream.last?.isCancelled == true)
        #expect(inners[1].last?.isCancelled == true)
        #expect(inners[0].last?.isCancelled == false, "the failed inner is not cancelled")
        inners[1].send(5)
        inners[1].send(completion: .finished)
        #expect(sub.events.count == 2)
        #expect(sub.violations.isEmpty)
    }

    @Test("C34 an upstream failure cancels the inners")
    func upstreamFailureCancelsInners() {
        let upstream = ManualPublisher<Int, TestError>()
        let inner = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in inner }.subscribe(sub)
        upstream.send(0)
        upstream.send(completion: .failure(TestError()))
        #expect(sub.completion == .failure(TestError()))
        #expect(inner.last?.isCancelled == true)
    }

    @Test("C08 never more values than demanded; buffered values wait for demand")
    func demand() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2, 3].publisher.flatMap { n in (0..<5).map { n * 10 + $0 }.publisher }.subscribe(sub)
        #expect(sub.values == [10, 11, 12])
        #expect(sub.completion == nil)
        sub.request(.max(4))
        #expect(sub.values.count == 7)
        sub.request(.unlimited)
        #expect(sub.values.count == 15)
        #expect(Set(sub.values) == Set([1, 2, 3].flatMap { n in (0..<5).map { n * 10 + $0 } }))
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 each inner is asked for one value at a time under finite demand")
    func innerDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { _ in inner }.subscribe(sub)
        upstream.send(0)
        #expect(inner.last?.requested == [.max(1)])
        #expect(inner.send(1) == .max(1))
        #expect(inner.send(2) == .none, "no demand: the value is buffered")
        #expect(sub.values == [1])
        sub.request(.max(1))
        #expect(sub.values == [1, 2])
        #expect(inner.last?.requested == [.max(1), .max(1)])
        sub.request(.unlimited)
        #expect(inner.last?.requested == [.max(1), .max(1), .unlimited])
    }

    @Test("C03 values buffered without demand are delivered before finished")
    func bufferedBeforeFinish() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).flatMap { Just($0 + 1) }.subscribe(sub)
        #expect(sub.events == [.subscription])
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(2), .finished])
    }

    @Test("C34 C08 inner Just publishers (fused) respect maxPublishers and demand")
    func fusedJust() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap(maxPublishers: .max(2)) { Just($0) }.subscribe(sub)
        #expect(upstream.last?.requested == [.max(2)])
        #expect(upstream.send(1) == .max(1), "a Just finishes at once: one more publisher is asked for")
        #expect(upstream.send(2) == .max(1))
        #expect(sub.values == [1])
        upstream.send(completion: .finished)
        #expect(sub.completion == nil, "2 waits for demand")
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])
        let all = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(all)
        #expect(all.values == [1, 2])
        all.request(.unlimited)
        #expect(all.values == [1, 2, 3, 4, 5])
        #expect(all.completion == .finished)
        #expect(all.violations.isEmpty)
    }

    @Test("C18 cancel cancels the upstream and every inner; nothing arrives after")
    func cancelCancelsAll() {
        let upstream = ManualPublisher<Int, Never>()
        let inners = (0..<2).map { _ in ManualPublisher<Int, Never>() }
        let sub = TestSubscriber<Int, Never>()
        upstream.flatMap { inners[$0] }.subscribe(sub)
        upstream.send(0)
        upstream.send(1)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        #expect(inners.allSatisfy { $0.last?.isCancelled == true })
        inners[0].send(1)
        inners[1].send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(sub.events == [.subscription])
    }

    @Test("C21 cancel from inside receive stops delivery at once")
    func cancelInsideReceive() {
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, s in
            if value == 3 { s.cancel() }
            return .none
        }
        (1...10).publisher.flatMap { Just($0) }.subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.completion == nil)
    }

    @Test("C20 request from inside receive does not recurse")
    func noRecursion() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1)); return .none
        }
        (1...10_000).publisher.flatMap { Just($0) }.subscribe(sub)
        #expect(sub.values == Array(1...10_000))
        #expect(sub.maxNesting <= 1)
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C06 a second upstream subscription is cancelled")
    func secondSubscription() {
        let sub = TestSubscriber<Int, Never>()
        var outer: (any Subscriber<Int, Never>)?
        let capture = AnyPublisher<Int, Never>(CapturingPublisher { outer = $0 })
        capture.flatMap { Just($0) }.subscribe(sub)
        let first = ProbeSubscription()
        let second = ProbeSubscription()
        outer?.receive(subscription: first)
        outer?.receive(subscription: second)
        #expect(second.isCancelled)
        #expect(!first.isCancelled)
        #expect(first.requested == [Subscribers.Demand.unlimited])
    }
}

/// Hands its subscriber to a closure, so a test can drive the subscriber directly.
struct CapturingPublisher<Output, Failure: Error>: Publisher {
    let body: (any Subscriber<Output, Failure>) -> Void
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure { body(subscriber) }
}

/// A subscription that records requests and cancels, for tests that drive a subscriber by hand.
final class ProbeSubscription: Subscription, @unchecked Sendable {
    // @unchecked: only used from the test's thread.
    var requested: [Subscribers.Demand] = []
    var cancelCount = 0
    var isCancelled: Bool { cancelCount > 0 }
    func request(_ demand: Subscribers.Demand) { requested.append(demand) }
    func cancel() { cancelCount += 1 }
}

@Suite("Combining: flatMap overloads")
struct FlatMapOverloadTests {
    @Test("Never-failure overloads pick Combine's types")
    func overloads() {
        let bothNever: Publishers.FlatMap<Just<Int>, Just<Int>> = Just(1).flatMap { Just($0 + 1) }
        let sub = TestSubscriber<Int, Never>()
        bothNever.subscribe(sub)
        #expect(sub.values == [2])

        let upstreamNever: Publishers.FlatMap<Fail<Int, TestError>, Publishers.SetFailureType<Just<Int>, TestError>> =
            Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError()) }
        let failing = TestSubscriber<Int, TestError>()
        upstreamNever.subscribe(failing)
        #expect(failing.completion == .failure(TestError()))

        let innerNever: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, TestError>, ManualPublisher<Int, TestError>> =
            ManualPublisher<Int, TestError>().flatMap { Just($0) }
        let upstream = ManualPublisher<Int, TestError>()
        let mixed = TestSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .max(1)) { Just($0 * 2) }.subscribe(mixed)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(mixed.events == [.subscription, .value(8), .finished])
        #expect(innerNever.maxPublishers == .unlimited)
    }
}

@Suite("Combining: flatMap ordering (Combine)")
struct FlatMapOrderingTests {
    @Test("the subscription goes downstream before the upstream is subscribed")
    func subscriptionBeforeUpstream() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        upstream.flatMap { _ in Just(1) }.subscribe(LoggedSubscriber<Int, Never>(log: log))
        #expect(log.entries == ["down subscription", "up subscribe", "up request(unlimited)"])
    }

    @Test("cancel cancels the inners before the upstream")
    func cancelInnersFirst() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, TestError>("up", log: log)
        let inners = (0..<2).map { LoggedPublisher<Int, TestError>("in\($0)", log: log) }
        let down = LoggedSubscriber<Int, TestError>(log: log)
        upstream.flatMap { inners[$0] }.subscribe(down)
        upstream.send(0)
        upstream.send(1)
        log.clear()
        down.cancel()
        down.cancel()
        #expect(log.entries == ["in0 cancel", "in1 cancel", "up cancel"])
    }

    @Test("an inner's failure cancels the other inners, then the upstream once, then fails downstream")
    func innerFailureCancelsUpstreamOnce() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, TestError>("up", log: log)
        let inners = (0..<3).map { LoggedPublisher<Int, TestError>("in\($0)", log: log) }
        let down = LoggedSubscriber<Int, TestError>(log: log)
        upstream.flatMap { inners[$0] }.subscribe(down)
        for index in 0..<3 { upstream.send(index) }
        log.clear()
        inners[1].send(completion: .failure(TestError()))
        down.cancel()
        inners[2].send(completion: .failure(TestError()))
        upstream.send(completion: .failure(TestError()))
        #expect(log.entries == ["in0 cancel", "in2 cancel", "up cancel", "down failure(boom)"])
    }

    @Test("an inner that keeps its subscriber after finishing cannot send into a later inner")
    func finishedInnerKeepsItsSubscriber() {
        // The engine reuses a finished inner's subscriber for the next inner only when nothing
        // else references it; this one is still referenced by the publisher that finished it.
        let keeper = KeepingPublisher(1)
        let live = ManualPublisher<Int, Never>()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.flatMap { $0 == 0 ? keeper.eraseToAnyPublisher() : live.eraseToAnyPublisher() }.subscribe(sub)
        _ = upstream.send(0)
        _ = upstream.send(1)
        #expect(live.subscriberCount == 1)
        keeper.sendLate(99)
        _ = live.send(5)
        live.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .value(5), .finished])
        #expect(sub.violations.isEmpty)
    }

    /// Runs `flatMap` over sequence inners with a demand pattern, once with the inners as they are
    /// (their elements taken without a subscription while the engine can deliver them) and once
    /// erased (always subscribed): the two must not differ.
    private func sequenceInnersRun(
        maxPublishers: Subscribers.Demand, initial: Subscribers.Demand, returned: Subscribers.Demand, erased: Bool
    ) -> [RecordedEvent<Int, Never>] {
        let sub = TestSubscriber<Int, Never>(initialDemand: initial)
        sub.onValue = { _, _ in returned }
        let inner = { (n: Int) in [n, n * 10, n * 100].publisher }
        if erased {
            [1, 2, 3].publisher.flatMap(maxPublishers: maxPublishers) { inner($0).eraseToAnyPublisher() }.subscribe(sub)
        } else {
            [1, 2, 3].publisher.flatMap(maxPublishers: maxPublishers) { inner($0) }.subscribe(sub)
        }
        for _ in 0..<12 { sub.request(.max(1)) }
        #expect(sub.violations.isEmpty)
        return sub.events
    }

    @Test(
        "sequence inners taken without a subscription: the same values, order and completion as subscribed ones",
        arguments: [Subscribers.Demand.unlimited, .max(1), .max(2)], [Subscribers.Demand.unlimited, .none, .max(1), .max(4)])
    func sequenceInnersFused(maxPublishers: Subscribers.Demand, initial: Subscribers.Demand) {
        for returned in [Subscribers.Demand.none, .max(1)] {
            let fused = sequenceInnersRun(maxPublishers: maxPublishers, initial: initial, returned: returned, erased: false)
            let subscribed = sequenceInnersRun(maxPublishers: maxPublishers, initial: initial, returned: returned, erased: true)
            #expect(fused == subscribed, "returned \(returned)")
        }
    }

    @Test("C05 a cancel from inside a sequence inner's iterator: nothing more is sent, as when subscribed")
    func cancelInsideSequenceInner() {
        for erased in [false, true] {
            let sub = TestSubscriber<Int, Never>()
            let inner = { (n: Int) in
                (0..<3).lazy.map { i -> Int in
                    if n == 2, i == 1 { sub.cancel() }
                    return n * 10 + i
                }.publisher
            }
            if erased {
                [1, 2, 3].publisher.flatMap { inner($0).eraseToAnyPublisher() }.subscribe(sub)
            } else {
                [1, 2, 3].publisher.flatMap { inner($0) }.subscribe(sub)
            }
            #expect(sub.events == [.subscription, .value(10), .value(11), .value(12)], "erased \(erased)")
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("merge of sequences takes their elements the same way, with the same result")
    func mergeOfSequences() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2].publisher.merge(with: [3, 4].publisher).subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        sub.request(.max(5))
        #expect(sub.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }
}

/// Sends one value and finishes at once, then keeps its subscriber: `sendLate` sends to it again.
private final class KeepingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let value: Int
    private var late: ((Int) -> Void)?

    init(_ value: Int) { self.value = value }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        _ = subscriber.receive(value)
        subscriber.receive(completion: .finished)
        late = { _ = subscriber.receive($0) }
    }

    func sendLate(_ value: Int) { late?(value) }
}
