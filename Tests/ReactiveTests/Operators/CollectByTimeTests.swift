import Reactive
import ReactiveTestSupport
import Testing

@Suite("collect by time")
struct CollectByTimeTests {
    static let format: @Sendable ([String]) -> String = { "[" + $0.joined() + "]" }

    @Test("byTime: a group per window, empty windows publish nothing, the last partial group on finish")
    func byTime() {
        let result = marbles("-a-b-c-d-|", expected: "---[a]--[bc]--([d]|)", format: Self.format) { source, scheduler in
            source.collect(.byTime(scheduler, .milliseconds(30)))
        }
        #expect(result.passed, "\(result)")
        // `a` arrives at tick 6 before the window closing at 6 (it was scheduled first).
        let quiet = marbles("------a|", expected: "------[a]|", format: Self.format) { source, scheduler in
            source.collect(.byTime(scheduler, .milliseconds(30)))
        }
        #expect(quiet.passed, "\(quiet)")
    }

    @Test("byTimeOrCount: a full group is published at once; the timer keeps its schedule")
    func byTimeOrCount() {
        let result = marbles("-abc-d---|", expected: "--[ab]--[cd]---|", format: Self.format) { source, scheduler in
            source.collect(.byTimeOrCount(scheduler, .milliseconds(30), 2))
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C04 a failure is delivered at once and discards collected values")
    func failure() {
        let result = marbles("-ab#", expected: "---#", format: Self.format) { source, scheduler in
            source.collect(.byTime(scheduler, .milliseconds(50)))
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C08 groups wait for demand, in order; the completion waits behind them")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<[Int], Never>(initialDemand: .none)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(3)
        scheduler.advance(by: .seconds(1))
        upstream.send(completion: .finished)
        #expect(sub.values.isEmpty)
        sub.request(.max(1))
        #expect(sub.values == [[1]])
        #expect(sub.completion == nil)
        sub.request(.max(1))
        #expect(sub.values == [[1], [2, 3]])
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C18 cancel stops the timer and upstream")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<[Int], Never>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(sub)
        upstream.send(1)
        #expect(scheduler.pendingCount == 1)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.last?.isCancelled == true)
        scheduler.advance(by: .seconds(3))
        #expect(sub.events == [.subscription])
    }
}
