import Reactive
import ReactiveTestSupport
import Testing

@Suite("debounce")
struct DebounceTests {
    @Test(
        "C39 a value is published after dueTime of quiet",
        arguments: [
            ("-a-b------c----|", "------b------c-|"),
            ("abcd----", "------d"),
            ("a---b---", "---a---b"),
        ])
    func values(input: String, expected: String) {
        let result = marbles(input, expected: expected) { source, scheduler in
            source.debounce(for: .milliseconds(30), scheduler: scheduler)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C39 pinned: on completion a pending value is dropped and the completion is not delayed")
    func pendingOnCompletion() {
        let finished = marbles("-a-b|", expected: "----|") { source, scheduler in
            source.debounce(for: .milliseconds(30), scheduler: scheduler)
        }
        #expect(finished.passed, "\(finished)")
        let failed = marbles("-a#", expected: "--#") { source, scheduler in
            source.debounce(for: .milliseconds(30), scheduler: scheduler)
        }
        #expect(failed.passed, "\(failed)")
    }

    @Test("C08 a debounced value with no demand is dropped; upstream is asked for unlimited")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(1)
        scheduler.advance(by: .seconds(2))
        #expect(sub.values.isEmpty)
        sub.request(.max(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(2))
        upstream.send(3)
        scheduler.advance(by: .seconds(2))
        #expect(sub.values == [2])
        #expect(sub.violations.isEmpty)
    }

    @Test("C39 cancel cancels the pending timer and upstream")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        upstream.send(1)
        #expect(scheduler.pendingCount == 1)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.last?.isCancelled == true)
        upstream.send(2)
        scheduler.advance(by: .seconds(5))
        #expect(sub.events == [.subscription])
    }

    @Test("each new value replaces the pending timer: only one is ever pending")
    func oneTimer() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(sub)
        for value in 0..<10 {
            upstream.send(value)
            scheduler.advance(by: .milliseconds(500))
        }
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(500))
        #expect(sub.values == [9])
        #expect(scheduler.pendingCount == 0)
    }
}
