import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: switchToLatest")
struct SwitchToLatestTests {
    @Test("a new inner publisher cancels the previous one; only the latest's values pass")
    func switches() {
        let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
        let first = ManualPublisher<Int, TestError>()
        let second = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(sub)
        #expect(outer.last?.requested == [.unlimited])
        outer.send(first)
        first.send(1)
        outer.send(second)
        #expect(first.last?.isCancelled == true)
        first.send(2)
        second.send(3)
        outer.send(completion: .finished)
        #expect(sub.completion == nil, "the current inner still runs")
        second.send(completion: .finished)
        #expect(sub.events == [.subscription, .value(1), .value(3), .finished])
        #expect(sub.violations.isEmpty)
    }

    @Test("values buffered from a replaced inner are dropped")
    func dropsBuffered() {
        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        outer.switchToLatest().subscribe(sub)
        outer.send(first)
        first.send(1)
        outer.send(second)
        second.send(2)
        sub.request(.max(5))
        #expect(sub.values == [2])
    }

    @Test("an inner failure fails the output and cancels the outer")
    func innerFailure() {
        let outer = ManualPublisher<ManualPublisher<Int, TestError>, TestError>()
        let inner = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(sub)
        outer.send(inner)
        inner.send(completion: .failure(TestError()))
        #expect(sub.completion == .failure(TestError()))
        #expect(outer.last?.isCancelled == true)
    }

    @Test("C18 cancel cancels the outer and the current inner")
    func cancel() {
        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let inner = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(sub)
        outer.send(inner)
        sub.cancel()
        #expect(outer.last?.isCancelled == true)
        #expect(inner.last?.isCancelled == true)
    }

    @Test("Never-failure overloads type-check as in Combine")
    func overloads() {
        let a: Publishers.SwitchToLatest<Just<Int>, Publishers.Sequence<[Just<Int>], Never>> =
            [Just(1), Just(2)].publisher.switchToLatest()
        let sub = TestSubscriber<Int, Never>()
        a.subscribe(sub)
        #expect(sub.values == [1, 2])
        let b = [Fail<Int, TestError>(error: TestError())].publisher.switchToLatest()
        let subB = TestSubscriber<Int, TestError>()
        b.subscribe(subB)
        #expect(subB.completion == .failure(TestError()))
        let c = ManualPublisher<Just<Int>, TestError>()
        let subC = TestSubscriber<Int, TestError>()
        c.switchToLatest().subscribe(subC)
        c.send(Just(5))
        #expect(subC.values == [5])
    }

    @Test("C09 each inner is asked for the outstanding downstream demand, nothing while it is zero, and later requests go to it (Combine)")
    func innerDemand() {
        let outer = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(3))
        outer.switchToLatest().subscribe(sub)
        outer.send(first)
        #expect(first.last?.requested == [.max(3)])
        first.send(1)
        sub.request(.max(2))
        #expect(first.last?.requested == [.max(3), .max(2)])
        outer.send(second)
        #expect(second.last?.requested == [.max(4)])
        #expect(second.send(2) == .none)

        let idle = ManualPublisher<ManualPublisher<Int, Never>, Never>()
        let inner = ManualPublisher<Int, Never>()
        let waiting = TestSubscriber<Int, Never>(initialDemand: .none)
        idle.switchToLatest().subscribe(waiting)
        idle.send(inner)
        #expect(inner.last?.requested == [], "nothing while demand is zero")
        waiting.request(.max(1))
        #expect(inner.last?.requested == [.max(1)])
        #expect(waiting.violations.isEmpty && sub.violations.isEmpty)
    }
}

@Suite("Combining: switchToLatest ordering (Combine)")
struct SwitchToLatestOrderingTests {
    @Test("the subscription goes downstream before the upstream is subscribed")
    func subscriptionBeforeUpstream() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Just<Int>, Never>("up", log: log)
        upstream.switchToLatest().subscribe(LoggedSubscriber<Int, Never>(log: log))
        #expect(log.entries == ["down subscription", "up subscribe", "up request(unlimited)"])
    }

    @Test("cancel cancels the inner before the upstream")
    func cancelInnerFirst() {
        let log = OrderLog()
        let upstream = LoggedPublisher<LoggedPublisher<Int, Never>, Never>("up", log: log)
        let down = LoggedSubscriber<Int, Never>(log: log)
        upstream.switchToLatest().subscribe(down)
        upstream.send(LoggedPublisher("in", log: log))
        log.clear()
        down.cancel()
        down.cancel()
        #expect(log.entries == ["in cancel", "up cancel"])
    }

    @Test("a new inner cancels the previous one before subscribing to the new one")
    func switchOrder() {
        let log = OrderLog()
        let upstream = LoggedPublisher<LoggedPublisher<Int, Never>, Never>("up", log: log)
        upstream.switchToLatest().subscribe(LoggedSubscriber<Int, Never>(log: log, initialDemand: .max(3)))
        upstream.send(LoggedPublisher("in0", log: log))
        log.clear()
        upstream.send(LoggedPublisher("in1", log: log))
        #expect(log.entries == ["in0 cancel", "in1 subscribe", "in1 request(max(3))"])
    }
}
