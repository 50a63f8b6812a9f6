import Testing
import Reactive
import ReactiveTestSupport

@Suite("Bridges: asyncMap")
struct AsyncMapTests {
    @Test("asyncMap transforms every value, in order, then finishes")
    func transformsInOrder() {
        let executor = DrainExecutor()
        let sub = TestSubscriber<Int, Never>()
        (1...5).publisher.asyncMap(executorPreference: executor) { $0 * 10 }.subscribe(sub)
        executor.drain()
        #expect(sub.values == [10, 20, 30, 40, 50])
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C45 no transform starts without demand")
    func noTransformWithoutDemand() {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let started = Counter()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.asyncMap(maxConcurrent: 3, executorPreference: executor) { value in
            started.increment()
            return value
        }.subscribe(sub)
        executor.drain()
        #expect(upstream.last?.requested == [])
        #expect(started.value == 0)

        sub.request(.max(2))
        #expect(upstream.last?.totalDemand == .max(2))
        upstream.send(1)
        upstream.send(2)
        executor.drain()
        #expect(started.value == 2)
        #expect(sub.values == [1, 2])
        #expect(upstream.last?.totalDemand == .max(2), "nothing more requested without demand")
        #expect(sub.violations.isEmpty)
    }

    @Test("C08 demand is respected: upstream is asked for at most maxConcurrent values beyond those emitted")
    func boundedUpstreamDemand() {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMap(executorPreference: executor) { $0 + 1 }.subscribe(sub)
        #expect(upstream.last?.requested == [.max(1)], "unlimited downstream demand still asks one at a time")
        upstream.send(1)
        #expect(upstream.last?.requested == [.max(1)], "no more before the transform finished")
        executor.drain()
        #expect(sub.values == [2])
        #expect(upstream.last?.requested == [.max(1), .max(1)])
    }

    @Test("C09 demand is additive across requests and what receive returns")
    func additiveDemand() {
        let executor = DrainExecutor()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sub.onValue = { value, _ in value == 1 ? .max(1) : .none }
        (1...10).publisher.asyncMap(executorPreference: executor) { $0 }.subscribe(sub)
        executor.drain()
        #expect(sub.values == [1, 2])
        sub.request(.max(3))
        executor.drain()
        #expect(sub.values == [1, 2, 3, 4, 5])
        #expect(sub.completion == nil)
        #expect(sub.violations.isEmpty)
    }

    @Test("order is preserved with maxConcurrent while transforms finish out of order")
    func orderedWithConcurrency() {
        let executor = DrainExecutor()
        let gates = Gates()
        let meter = ConcurrencyMeter()
        let sub = TestSubscriber<Int, Never>()
        (1...4).publisher.asyncMap(maxConcurrent: 3, executorPreference: executor) { value in
            meter.enter()
            await gates.wait(value)
            meter.leave()
            return value * 10
        }.subscribe(sub)
        executor.drain()
        #expect(gates.waitingCount == 3, "three transforms run at once")
        #expect(meter.peak == 3)
        gates.open(3)
        gates.open(2)
        executor.drain()
        #expect(sub.values == [], "2 and 3 wait for 1")
        gates.open(1)
        executor.drain()
        #expect(sub.values == [10, 20, 30])
        gates.open(4)
        executor.drain()
        #expect(sub.values == [10, 20, 30, 40])
        #expect(sub.completion == .finished)
        #expect(sub.violations.isEmpty)
    }

    @Test("C45 cancelling the subscription cancels the transform in flight")
    func cancelCancelsTask() {
        let executor = DrainExecutor()
        let log = BridgeLog()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.asyncMap(executorPreference: executor) { value in
            do {
                try await Task.sleep(for: .seconds(3600))
                log.append("slept")
            } catch is CancellationError {
                log.append("cancelled")
            } catch {
                log.append("other")
            }
            return value
        }.subscribe(sub)
        upstream.send(1)
        executor.drain()
        #expect(log.all == [])
        sub.cancel()
        executor.drain()
        #expect(log.all == ["cancelled"])
        #expect(upstream.last?.isCancelled == true)
        #expect(sub.values == [], "C45 a result after cancel is dropped")
        #expect(sub.completion == nil, "C05 no completion after cancel")
    }

    @Test("C45 results after cancel are dropped, even when the transform ignores cancellation")
    func resultsAfterCancelDropped() {
        let executor = DrainExecutor()
        let gates = Gates()
        let sub = TestSubscriber<Int, Never>()
        (1...3).publisher.asyncMap(executorPreference: executor) { value in
            await gates.wait(value)
            return value
        }.subscribe(sub)
        executor.drain()
        sub.cancel()
        gates.open(1)
        executor.drain()
        #expect(sub.values == [])
        #expect(sub.completion == nil)
        #expect(executor.pending == 0)
    }

    @Test("C04 a thrown error becomes the one failure and cancels upstream")
    func thrownErrorFails() {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, any Error>()
        let sub = TestSubscriber<Int, any Error>()
        upstream.asyncMap(executorPreference: executor) { value in
            if value == 2 { throw TestError("two") }
            return value
        }.subscribe(sub)
        upstream.send(1)
        executor.drain()
        upstream.send(2)
        executor.drain()
        #expect(sub.values == [1])
        #expect((sub.completion.flatMap { if case .failure(let e) = $0 { e as? TestError } else { nil } }) == TestError("two"))
        #expect(upstream.last?.isCancelled == true)
        upstream.send(3)
        executor.drain()
        #expect(sub.values == [1], "C33 nothing after the failure")
        #expect(sub.violations.isEmpty)
    }

    @Test("a thrown error comes after the outputs of earlier values, in order")
    func thrownErrorInOrder() {
        let executor = DrainExecutor()
        let gates = Gates()
        let sub = TestSubscriber<Int, any Error>()
        (1...3).publisher.asyncMap(maxConcurrent: 3, executorPreference: executor) { value in
            await gates.wait(value)
            if value == 2 { throw TestError() }
            return value
        }.subscribe(sub)
        executor.drain()
        gates.open(2)
        executor.drain()
        #expect(sub.completion == nil, "the failure of 2 waits for 1")
        gates.open(1)
        executor.drain()
        #expect(sub.values == [1])
        #expect(sub.completion.map { !$0.isFinished } == true)
        #expect(sub.violations.isEmpty)
    }

    @Test("the throwing form on a publisher that cannot fail produces a failing publisher")
    func throwingOnNever() {
        let executor = DrainExecutor()
        let sub = TestSubscriber<Int, any Error>()
        Just(1).asyncMap(executorPreference: executor) { _ -> Int in throw TestError() }.subscribe(sub)
        executor.drain()
        #expect(sub.values == [])
        #expect(sub.completion.map { !$0.isFinished } == true)
    }

    @Test("an upstream failure is forwarded at once and cancels the transform in flight")
    func upstreamFailure() {
        let executor = DrainExecutor()
        let log = BridgeLog()
        let upstream = ManualPublisher<Int, TestError>()
        let sub = TestSubscriber<Int, TestError>()
        upstream.asyncMap(executorPreference: executor) { value in
            try? await Task.sleep(for: .seconds(3600))
            log.append(Task.isCancelled ? "cancelled" : "done")
            return value
        }.subscribe(sub)
        upstream.send(1)
        executor.drain()
        upstream.send(completion: .failure(TestError("up")))
        #expect(sub.completion == .failure(TestError("up")))
        executor.drain()
        #expect(log.all == ["cancelled"])
        #expect(sub.values == [])
        #expect(sub.violations.isEmpty)
    }

    @Test("C03 an upstream finish waits for the transform in flight")
    func finishWaits() {
        let executor = DrainExecutor()
        let gates = Gates()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>()
        upstream.asyncMap(executorPreference: executor) { value in
            await gates.wait(value)
            return value
        }.subscribe(sub)
        upstream.send(7)
        executor.drain()
        upstream.send(completion: .finished)
        #expect(sub.completion == nil)
        gates.open(7)
        executor.drain()
        #expect(sub.events == [.subscription, .value(7), .finished])
    }

    @Test("an empty upstream finishes without starting a task")
    func emptyUpstream() {
        let executor = DrainExecutor()
        let sub = TestSubscriber<Int, Never>()
        Empty<Int, Never>().asyncMap(executorPreference: executor) { $0 }.subscribe(sub)
        executor.drain()
        #expect(sub.events == [.subscription, .finished])
    }

    @Test("C05 request and cancel after cancel are no-ops")
    func noOpsAfterCancel() {
        let executor = DrainExecutor()
        let upstream = ManualPublisher<Int, Never>()
        let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.asyncMap(executorPreference: executor) { $0 }.subscribe(sub)
        sub.cancel()
        sub.cancel()
        sub.request(.max(5))
        #expect(upstream.last?.cancelCount == 1)
        #expect(upstream.last?.requested == [.max(1)])
        executor.drain()
    }

    @Test("C16 cancel releases the subscriber and the transform's captures")
    func cancelReleases() {
        let executor = DrainExecutor()
        weak var weakTracked: Tracked?
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let upstream = ManualPublisher<Int, Never>()
            let tracked = Tracked()
            weakTracked = tracked
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            upstream.asyncMap(executorPreference: executor) { value in
                try? await Task.sleep(for: .seconds(3600))
                return value + tracked.id
            }.subscribe(sub)
            upstream.send(1)
            executor.drain()
            sub.cancel()
            executor.drain()
        }
        #expect(weakSub == nil)
        #expect(weakTracked == nil, "the task ended and nothing keeps the transform")
    }

    @Test("C17 finishing releases the subscriber without any cancel")
    func finishReleases() {
        let executor = DrainExecutor()
        weak var weakSub: TestSubscriber<Int, Never>?
        do {
            let sub = TestSubscriber<Int, Never>()
            weakSub = sub
            (1...3).publisher.asyncMap(executorPreference: executor) { $0 }.subscribe(sub)
            executor.drain()
            #expect(sub.completion == .finished)
        }
        #expect(weakSub == nil)
    }

    @Test("asyncMap runs on the global executor too")
    func globalExecutor() async {
        let sub = TestSubscriber<Int, Never>()
        (1...100).publisher.asyncMap(maxConcurrent: 4) { value in
            await Task.yield()
            return value * 2
        }.subscribe(sub)
        #expect(await eventually { sub.completion != nil })
        #expect(sub.values == (1...100).map { $0 * 2 })
        #expect(sub.violations.isEmpty)
    }
}
