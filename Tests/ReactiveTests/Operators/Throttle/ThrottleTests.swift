import Reactive
import ReactiveTestSupport
import Testing

@Suite("throttle")
struct ThrottleTests {
    @Test(
        "C39 latest: the first value at once, then the latest of each interval at its end",
        arguments: [
            ("abc---d-e--|", "a--c--d--e-|"),
            ("a-----b", "a-----b"),
            ("ab", "a--b"),
        ])
    func latest(input: String, expected: String) {
        let result = marbles(input, expected: expected) { source, scheduler in
            source.throttle(for: .milliseconds(30), scheduler: scheduler, latest: true)
        }
        #expect(result.passed, "\(result)")
    }

    @Test(
        "C39 first: the first value at once, then the first of each interval at its end",
        arguments: [
            ("abc---d-e--|", "a--b--d--e-|"),
            ("abcdefg", "a--b--d--g"),
        ])
    func first(input: String, expected: String) {
        let result = marbles(input, expected: expected) { source, scheduler in
            source.throttle(for: .milliseconds(30), scheduler: scheduler, latest: false)
        }
        #expect(result.passed, "\(result)")
    }

    @Test("C39 pinned: a trailing value is still delivered, and the completion (even a failure) follows it")
    func trailing() {
        let finished = marbles("ab|", expected: "a--(b|)") { source, scheduler in
            source.throttle(for: .milliseconds(30), scheduler: scheduler, latest: true)
        }
        #expect(finished.passed, "\(finished)")
        let failed = marbles("ab#", expected: "a--(b#)") { source, scheduler in
            source.throttle(for: .milliseconds(30), scheduler: scheduler, latest: true)
        }
        #expect(failed.passed, "\(failed)")
        let immediate = marbles("a---#", expected: "a---#") { source, scheduler in
            source.throttle(for: .milliseconds(30), scheduler: scheduler, latest: false)
        }
        #expect(immediate.passed, "\(immediate)")
    }

    @Test("C08 values that would start an interval with no demand are dropped")
    func demand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        upstream.send(1)
        scheduler.advance(by: .seconds(2))
        upstream.send(2)
        scheduler.advance(by: .seconds(2))
        #expect(sub.values == [1])
        sub.request(.max(1))
        upstream.send(3)
        scheduler.advance(by: .zero)
        #expect(sub.values == [1, 3])
        #expect(sub.violations.isEmpty)
    }

    @Test("C39 cancel cancels the pending delivery")
    func cancel() {
        let scheduler = VirtualTimeScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(sub)
        upstream.send(1)
        scheduler.advance(by: .zero)
        upstream.send(2)
        #expect(scheduler.pendingCount == 1)
        sub.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.last?.isCancelled == true)
        scheduler.advance(by: .seconds(5))
        #expect(sub.values == [1])
        #expect(sub.completion == nil)
    }
}
