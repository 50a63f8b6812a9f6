import Reactive
import ReactiveTestSupport
import Testing

@Suite("buffer")
struct BufferTests {
    @Test("keepFull asks for `size` at once and one more per value delivered")
    func keepFull() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(sub)
        #expect(upstream.last?.requested == [.max(3)])
        for value in 1...3 { upstream.send(value) }
        #expect(sub.values.isEmpty)
        sub.request(.max(2))
        #expect(sub.values == [1, 2])
        #expect(upstream.last?.totalDemand == .max(5))
        #expect(sub.violations.isEmpty)
    }

    // Combine fact (issue #20 item 1): `.byRequest` asks upstream for `.unlimited` once, at
    // subscription, whatever the subscriber asks for; the subscriber's demand only drains the
    // buffer. Source: the OpenCombine project's buffer tests, which its authors run against
    // Apple's Combine (initial demand `.unlimited` for `.byRequest`, `.max(size)` for
    // `.keepFull`, and no request passed on afterwards for `.byRequest`).
    @Test("byRequest asks upstream for unlimited once and never passes the subscriber's requests on")
    func byRequestAsksUnlimitedOnce() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(sub)
        #expect(upstream.last?.requested == [.unlimited])
        #expect(upstream.send(1) == .none)
        #expect(sub.values == [1])
        sub.request(.max(3))
        #expect(upstream.last?.requested == [.unlimited])
    }

    // Combine fact (issue #20 item 1): because `.byRequest` takes everything upstream sends, a
    // subscriber that asks for one value at a time behind a small `.dropNewest` buffer loses what
    // does not fit. Same source as above (Combine's buffer drops the newest values beyond `size`
    // while the subscriber has no demand).
    @Test("byRequest with a one-at-a-time consumer loses what does not fit in the buffer, as in Combine")
    func byRequestOneAtATimeLosesOverflow() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        (1...5).publisher.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(sub)
        #expect(sub.values == [1, 2])
        #expect(sub.events.last == .finished)
        #expect(sub.violations.isEmpty)

        let oldest = TestSubscriber<Int, Never>(initialDemand: .max(1))
        oldest.onValue = { _, _ in .max(1) }
        (1...5).publisher.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(oldest)
        #expect(oldest.values == [4, 5])
    }

    // Combine fact (issue #20 item 1): a failure that upstream sends while the buffer asks for
    // values (before the subscriber has its subscription) still reaches the subscriber after
    // its subscription, never before it (C01).
    @Test("a failure during the prefetch reaches the subscriber after its subscription")
    func failureDuringPrefetch() {
        for prefetch in [Publishers.PrefetchStrategy.keepFull, .byRequest] {
            let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
            Fail<Int, TestError>(error: TestError("early")).buffer(size: 2, prefetch: prefetch, whenFull: .dropNewest)
                .subscribe(sub)
            #expect(sub.events == [.subscription, .failure(TestError("early"))])
            #expect(sub.violations.isEmpty)
        }
    }

    @Test("when full: dropNewest, dropOldest", arguments: [(true, [1, 2]), (false, [3, 4])])
    func whenFull(dropNewest: Bool, expected: [Int]) {
        let strategy: Publishers.BufferingStrategy<Never> = dropNewest ? .dropNewest : .dropOldest
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: strategy).subscribe(sub)
        for value in 1...4 { upstream.send(value) }
        sub.request(.unlimited)
        #expect(sub.values == expected)
    }

    @Test("C04 customError cancels upstream at once; the error follows the buffered value")
    func customError() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.last?.isCancelled == true)
        #expect(sub.events == [.subscription])
        sub.request(.max(5))
        #expect(sub.events == [.subscription, .value(1), .failure(TestError("full"))])
        upstream.send(3)
        #expect(sub.values == [1])
    }

    @Test("C03 pinned: finished waits behind buffered values; a failure does not")
    func completion() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(sub.completion == nil)
        sub.request(.max(1))
        #expect(sub.completion == nil)
        sub.request(.max(1))
        #expect(sub.events == [.subscription, .value(1), .value(2), .finished])

        let failing = ManualPublisher<Int, TestError>()
        let other = TestSubscriber<Int, TestError>(initialDemand: .none)
        failing.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(other)
        failing.send(1)
        failing.send(completion: .failure(TestError()))
        #expect(other.events == [.subscription, .failure(TestError())])
    }

    @Test("C05 cancel drops the buffer and cancels upstream")
    func cancel() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(sub)
        upstream.send(1)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        sub.request(.max(1))
        upstream.send(2)
        #expect(sub.events == [.subscription])
    }

    @Test("C20 a synchronous source through buffer keeps order without recursion")
    func synchronous() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        (0..<10_000).publisher.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(sub)
        #expect(sub.values == Array(0..<10_000))
        #expect(sub.completion == .finished)
        #expect(sub.maxNesting <= 2)
        #expect(sub.violations.isEmpty)
    }

    @Test("C09 keepFull replenishes through receive's return value while values flow")
    func keepFullReturnsDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(sub)
        #expect(upstream.last?.requested == [.max(3)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.last?.requested == [.max(3)], "replenished through the return value, not request")
        #expect(sub.values == [1, 2])
    }

    @Test("C04 customError: the buffered values go first, as demand allows, then the error (Combine)")
    func customErrorAfterValues() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)  // full
        #expect(upstream.last?.isCancelled == true)
        #expect(sub.events == [.subscription], "the error waits behind the buffered values")
        sub.request(.max(5))
        #expect(sub.events == [.subscription, .value(1), .value(2), .failure(TestError("full"))])

        let partial = ManualPublisher<Int, TestError>()
        let slow = TestSubscriber<Int, TestError>(initialDemand: .none)
        partial.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(slow)
        partial.send(1)
        partial.send(2)
        partial.send(3)
        slow.request(.max(1))
        #expect(slow.events == [.subscription, .value(1), .failure(TestError("full"))], "demand used up: the error")
        #expect(slow.violations.isEmpty)
    }
}


@Suite("Filtering: buffer ordering (Combine)")
struct BufferOrderingTests {
    // Combine fact (issue #20 item 1): both strategies ask upstream before the subscriber gets
    // its subscription. Source: the OpenCombine project's buffer tests, checked against Apple's
    // Combine, assert that nothing reached the subscriber when upstream's request arrives.
    @Test("upstream is asked for values before the subscription goes downstream", arguments: [
        (Publishers.PrefetchStrategy.keepFull, "up request(max(2))"), (.byRequest, "up request(unlimited)"),
    ])
    func requestBeforeSubscription(prefetch: Publishers.PrefetchStrategy, request: String) {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        upstream.buffer(size: 2, prefetch: prefetch, whenFull: .dropNewest).subscribe(LoggedSubscriber<Int, Never>(log: log))
        #expect(Array(log.entries.prefix(3)) == ["up subscribe", request, "down subscription"])
    }
}
