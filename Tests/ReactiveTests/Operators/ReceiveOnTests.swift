import Reactive
import ReactiveTestSupport
import Testing

@Suite("receive(on:)")
struct ReceiveOnTests {
    @Test("values and the completion arrive on the scheduler, in order")
    func values() {
        let scheduler = VirtualTimeScheduler()
        let sub = TestSubscriber<Int, Never>()
        (1...5).publisher.receive(on: scheduler).subscribe(sub)
        #expect(sub.events == [.subscription])
        scheduler.advance()
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C41 values sent right after subscribing are not lost")
    func notLost() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(sub)
        // The subscription reached the subscriber synchronously, so demand is already upstream.
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        scheduler.advance()
        #expect(sub.values == [1, 2])
    }

    @Test("C04 a failure is delivered after the values before it")
    func failure() {
        let result = marbles("-a-b#", expected: "-a-b#") { source, scheduler in source.receive(on: scheduler) }
        #expect(result.passed, "\(result)")
    }

    @Test("C09 demand goes straight upstream, plus what receive returns")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        upstream.receive(on: scheduler).subscribe(sub)
        upstream.send(1)
        #expect(upstream.last?.requested == [.max(1)])
        scheduler.advance()
        #expect(upstream.last?.requested == [.max(1), .max(1)])
    }

    @Test("C41 cancel discards queued deliveries")
    func cancelDiscards() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(completion: .finished)
        sub.cancel()
        scheduler.run()
        #expect(sub.events == [.subscription])
    }

    @Test("C21 cancel from inside receive stops delivery at once")
    func cancelInside() {
        let scheduler = VirtualTimeScheduler()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { value, sub in
            if value == 2 { sub.cancel() }
            return .none
        }
        (1...5).publisher.receive(on: scheduler).subscribe(sub)
        scheduler.advance()
        #expect(sub.values == [1, 2])
        #expect(sub.completion == nil)
    }

    @Test("C16 cancel releases the subscriber once the scheduler is drained")
    func releases() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            upstream.receive(on: scheduler).subscribe(sub)
            upstream.send(1)
            sub.cancel()
        }
        scheduler.run()
        #expect(weakSub == nil)
    }

    @Test("C20 on ImmediateScheduler a synchronous source driven one at a time does not recurse")
    func noRecursion() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        (0..<20_000).publisher.receive(on: ImmediateScheduler.shared).subscribe(sub)
        #expect(sub.values.count == 20_000)
        #expect(sub.values.last == 19_999)
        #expect(sub.completion == .finished)
        #expect(sub.maxNesting <= 2)
        #expect(sub.violations.isEmpty)
    }

    @Test("ImmediateScheduler delivers synchronously")
    func immediate() {
        let sub = TestSubscriber<Int, Never>()
        (1...3).publisher.receive(on: ImmediateScheduler.shared).subscribe(sub)
        #expect(sub.values == [1, 2, 3])
        #expect(sub.completion == .finished)
    }

    @Test("C05 a completion already scheduled is not delivered after a downstream cancel (Combine delivers it; Reactive keeps nothing after cancel)")
    func scheduledCompletionAfterCancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, sub in
            sub.cancel()
            return .none
        }
        upstream.receive(on: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(completion: .finished)
        // Both are queued for the same delivery; the value's receive cancels.
        scheduler.run()
        #expect(sub.events == [.subscription, .value(1)])
        #expect(sub.violations.isEmpty)
    }

    @Test("values sent at the same virtual time arrive at that time, in order, with the ones sent during delivery")
    func batchKeepsVirtualTimes() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        var arrivals: [(Int, Int64)] = []
        sub.onValue = { value, _ in
            arrivals.append((value, scheduler.now.nanoseconds))
            // A value sent from inside a delivery joins the same drain, at the same time.
            if value == 2 { upstream.send(3) }
            return .none
        }
        upstream.receive(on: scheduler).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        scheduler.schedule(after: .init(nanoseconds: 5)) { upstream.send(4) }
        scheduler.schedule(after: .init(nanoseconds: 5)) { upstream.send(5) }
        scheduler.run()
        #expect(arrivals.map(\.0) == [1, 2, 3, 4, 5])
        #expect(arrivals.map(\.1) == [0, 0, 0, 5, 5])
        #expect(scheduler.pendingCount == 0)
        #expect(sub.violations.isEmpty)
    }

    @Test("C17 the subscriber is released once the completion is delivered")
    func releasesAtCompletion() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            upstream.receive(on: scheduler).subscribe(sub)
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        scheduler.run()
        #expect(weakSub == nil)
    }
}
