import Testing
import Reactive
import ReactiveTestSupport

@Suite("Combining: retry")
struct RetryTests {
    @Test("C37 at most n resubscriptions, then the failure")
    func atMostN() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.retry(2).subscribe(sub)
        upstream.send(1)
        upstream.send(completion: .failure(TestError("1")))
        #expect(upstream.subscriberCount == 2)
        upstream.send(completion: .failure(TestError("2")))
        #expect(upstream.subscriberCount == 3)
        upstream.send(2)
        upstream.send(completion: .failure(TestError("3")))
        #expect(upstream.subscriberCount == 3)
        #expect(sub.events == [.subscription, .value(1), .value(2), .failure(TestError("3"))])
        #expect(sub.violations.isEmpty)
    }

    @Test("C37 outstanding demand carries over to the new subscription")
    func demandCarries() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(5))
        upstream.retry(1).subscribe(sub)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.subscriptions[1].requested == [.max(3)])
    }

    @Test("C24 Fail(e).retry(100_000) ends with the failure and no stack overflow")
    func noStackOverflow() {
        let sub = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError()).retry(100_000).subscribe(sub)
        #expect(sub.events == [.subscription, .failure(TestError())])
    }

    @Test("succeeds after synchronous failures")
    func succeedsLater() {
        var attempts = 0
        let flaky = AnyPublisher<Int, TestError>(
            CapturingPublisher<Int, TestError> { subscriber in
                attempts += 1
                if attempts < 3 {
                    Fail<Int, TestError>(error: TestError()).subscribe(subscriber)
                } else {
                    Just(attempts).setFailureType(to: TestError.self).subscribe(subscriber)
                }
            })
        let sub = TestSubscriber<Int, TestError>()
        flaky.retry(5).subscribe(sub)
        #expect(sub.events == [.subscription, .value(3), .finished])
    }

    @Test("retry(0) passes the first failure through; a finish passes through")
    func zeroRetries() {
        let sub = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError()).retry(0).subscribe(sub)
        #expect(sub.completion == .failure(TestError()))
        let ok = TestSubscriber<Int, Never>()
        Just(1).retry(3).subscribe(ok)
        #expect(ok.events == [.subscription, .value(1), .finished])
    }

    @Test("C18 cancel cancels the live subscription and stops retrying")
    func cancel() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.retry(3).subscribe(sub)
        sub.cancel()
        #expect(upstream.last?.isCancelled == true)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.subscriberCount == 1)
        #expect(sub.events == [.subscription])
    }

    @Test("C37 retry with a negative count keeps resubscribing (Combine)")
    func negativeRetries() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.retry(-1).subscribe(sub)
        for _ in 0..<5 { upstream.send(completion: .failure(TestError())) }
        #expect(upstream.subscriberCount == 6)
        #expect(sub.completion == nil)
    }
}

@Suite("Combining: retry ordering (Combine)")
struct RetryOrderingTests {
    @Test("the upstream is subscribed first; its subscription sends ours downstream, then the demand goes up")
    func upstreamFirst() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, TestError>("up", log: log)
        upstream.retry(1).subscribe(LoggedSubscriber<Int, TestError>(log: log, initialDemand: .max(3)))
        #expect(log.entries == ["up subscribe", "down subscription", "up request(max(3))"])
    }

    @Test("a failure resubscribes and asks the new subscription for what is owed; the downstream sees one subscription")
    func resubscription() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, TestError>("up", log: log)
        upstream.retry(1).subscribe(LoggedSubscriber<Int, TestError>(log: log, initialDemand: .max(3)))
        upstream.send(1)
        upstream.send(completion: .failure(TestError("1")))
        upstream.send(2)
        upstream.send(completion: .failure(TestError("2")))
        #expect(
            log.entries == [
                "up subscribe", "down subscription", "up request(max(3))", "down value(1)",
                "up subscribe", "up request(max(2))", "down value(2)", "down failure(2)",
            ])
    }

    @Test("C09 demand the downstream adds while receiving goes upstream as a request, not through receive's return")
    func addedDemandIsRequested() {
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        sub.onValue = { value, _ in .max(value) }
        upstream.retry(2).subscribe(sub)
        #expect(upstream.send(5) == .none)
        #expect(upstream.last?.requested == [.max(3), .max(5)])
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.subscriptions[1].requested == [.max(7)], "3 + 5 asked, 1 delivered")
        #expect(sub.violations.isEmpty)
    }

    @Test("C20 a synchronous source through retry, driven one value at a time, does not recurse")
    func noRecursion() {
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { _, _ in .max(1) }
        (1...100_000).publisher.retry(1).subscribe(sub)
        #expect(sub.values.count == 100_000)
        #expect(sub.maxNesting <= 1)
        #expect(sub.completion == .finished)
        let requesting = TestSubscriber<Int, Never>(initialDemand: .max(1))
        requesting.onValue = { _, s in
            s.request(.max(1)); return .none
        }
        (1...100_000).publisher.retry(1).subscribe(requesting)
        #expect(requesting.values.count == 100_000)
        #expect(requesting.maxNesting <= 1)
        #expect(sub.violations.isEmpty && requesting.violations.isEmpty)
    }

    @Test("C01 an upstream that finishes at once: subscription, then finished")
    func finishesAtOnce() {
        let sub = TestSubscriber<Int, Never>()
        Empty<Int, Never>().retry(3).subscribe(sub)
        #expect(sub.events == [.subscription, .finished])
        let failing = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError()).retry(2).subscribe(failing)
        #expect(failing.events == [.subscription, .failure(TestError())])
        #expect(failing.violations.isEmpty)
    }
}
