import Foundation
import Synchronization
import Testing
import Reactive
import ReactiveTestSupport

/// A task executor drained by test threads: tasks run on explicit threads the stress test starts.
private final class ThreadDrainedExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only state is the job queue inside a Mutex.
    private let jobs = Lock<[UnownedJob]>([])
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
    }
    /// Runs jobs until none is left; returns how many ran.
    @discardableResult
    func drain() -> Int {
        var count = 0
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            count += 1
        }
        return count
    }
    /// Drains until `done()` holds or `limit` seconds pass.
    func drain(until done: () -> Bool, limit: Double = 5) {
        let deadline = Date().addingTimeInterval(limit)
        while !done() && Date() < deadline {
            if drain() == 0 { sched_yield() }
        }
        drain()
    }
}

/// A source that respects demand and sends from its own producer thread: value i is i, and it
/// finishes after `count` values. Cancel stops it and drops the subscriber.
private final class ThreadedSource: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    typealias Output = Int
    typealias Failure = Never

    private let lock = Lock<Void>(())
    private var downstream: AnySubscriber<Int, Never>?
    private var demand = Subscribers.Demand.none
    private var cancelledFlag = false
    private var subscribed = false
    let count: Int

    init(count: Int) { self.count = count }

    final class Link: Subscription, @unchecked Sendable {
        // @unchecked: immutable reference to the source, which locks its own state.
        let source: ThreadedSource
        init(_ source: ThreadedSource) { self.source = source }
        func request(_ demand: Subscribers.Demand) { source.lock.guarded { source.demand += demand } }
        func cancel() {
            source.lock.guarded {
                source.cancelledFlag = true
                source.downstream = nil
            }
        }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        lock.guarded {
            downstream = AnySubscriber(subscriber)
            subscribed = true
        }
        subscriber.receive(subscription: Link(self))
    }

    var isCancelled: Bool { lock.guarded { cancelledFlag } }

    /// The producer loop: run it on one thread. Returns when done or cancelled, or at the limit.
    func produce(limit: Double = 5) {
        let deadline = Date().addingTimeInterval(limit)
        var next = 0
        while Date() < deadline {
            let target = lock.guarded { () -> AnySubscriber<Int, Never>? in
                guard let downstream, !cancelledFlag else { return nil }
                if next == count { return downstream }
                guard demand > 0 else { return nil }
                demand -= 1
                return downstream
            }
            if lock.guarded({ cancelledFlag || (subscribed && downstream == nil) }) { return }
            guard let target else {
                sched_yield()
                continue
            }
            if next == count {
                lock.guarded { downstream = nil }
                target.receive(completion: .finished)
                return
            }
            let more = target.receive(next)
            next += 1
            if more > 0 { lock.guarded { demand += more } }
        }
    }
}

/// Something held weakly by a leak check.
private final class Tracked: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

private func spin(_ n: Int) {
    var x = 0
    for i in 0..<n { x &+= i }
    withExtendedLifetime(x) {}
}

/// One round of the async() race: returns how the call ended.
private func raceAsync(_ upstream: ManualPublisher<Int, TestError>, round: Int) async -> String {
    let executor = ThreadDrainedExecutor()
    let resumed = Counter()
    let task = Task(executorPreference: executor) { () -> String in
        defer { resumed.increment() }
        do {
            return "value \(try await upstream.async())"
        } catch is CancellationError {
            return "cancelled"
        } catch AsyncError.finishedWithoutValue {
            return "finished"
        } catch {
            return "failed"
        }
    }
    executor.drain()  // subscribes and suspends
    let finished = runConcurrently(threads: 5) { index in
        spin((round * 7 + index * 13) % 200)
        switch index {
        case 0: upstream.send(1)
        case 1: upstream.send(completion: .finished)
        case 2: upstream.send(completion: .failure(TestError()))
        case 3: task.cancel()
        default: executor.drain(until: { resumed.value > 0 })
        }
    }
    #expect(finished, "watchdog")
    executor.drain()
    #expect(resumed.value == 1, "exactly one resume")
    return await task.value
}

/// Waits until `condition` holds: at most 30,000 looks a millisecond apart (`waitUntil`).
private func eventually(_ condition: () -> Bool) async -> Bool {
    await waitUntil(looks: 30_000, condition)
}

@Suite("Stress: async bridges", .serialized, .timeLimit(.minutes(1)))
struct BridgeStressTests {
    @Test("C44 async() resumes exactly once while a value, a finish, a failure and cancel race")
    func asyncRace() async {
        let outcomes = Lock<[String: Int]>([:])
        for round in 0..<300 {
            weak var weakUpstream: ManualPublisher<Int, TestError>?
            do {
                let upstream = ManualPublisher<Int, TestError>()
                weakUpstream = upstream
                let outcome = await raceAsync(upstream, round: round)
                outcomes.withLock { $0[outcome.hasPrefix("value") ? "value" : outcome, default: 0] += 1 }
                #expect(upstream.last?.isCancelled == true || outcome == "finished" || outcome == "failed")
            }
            #expect(await eventually { weakUpstream == nil }, "nothing keeps the publisher once async() returned")
        }
        #expect(outcomes.withLock { $0.values.reduce(0, +) } == 300)
    }

    @Test("C43 values consumers break out or are cancelled at random points; upstream is always cancelled")
    func valuesBreakOut() async {
        for round in 0..<150 {
            let executor = ThreadDrainedExecutor()
            let breaking = ThreadedSource(count: 200)
            let cancelled = ThreadedSource(count: 100_000)
            let breakAt = (round * 37) % 150
            let doneCount = Counter()
            let seenA = Lock<[Int]>([])
            let seenB = Lock<[Int]>([])
            let taskA = Task(executorPreference: executor) {
                defer { doneCount.increment() }
                for await value in breaking.values {
                    seenA.withLock { $0.append(value) }
                    if value == breakAt { break }
                }
            }
            let taskB = Task(executorPreference: executor) {
                defer { doneCount.increment() }
                for await value in cancelled.values { seenB.withLock { $0.append(value) } }
            }
            let finished = runConcurrently(threads: 4) { index in
                switch index {
                case 0: breaking.produce()
                case 1: cancelled.produce()
                case 2: executor.drain(until: { doneCount.value == 2 })
                default:
                    spin((round * 101) % 5000)
                    taskB.cancel()
                }
            }
            #expect(finished, "watchdog")
            executor.drain()
            if doneCount.value < 2 {
                Issue.record("consumers did not finish")
                taskA.cancel()
                taskB.cancel()
                executor.drain()
            }
            await taskA.value
            await taskB.value
            let a = seenA.withLock { $0 }
            let b = seenB.withLock { $0 }
            #expect(a == Array(0...breakAt), "one value per next(), in order, up to the break")
            #expect(b == Array(0..<b.count))
            #expect(breaking.isCancelled, "leaving the loop cancels upstream")
            #expect(cancelled.isCancelled, "cancelling the task cancels upstream")
        }
    }

    @Test("C45 asyncMap cancelled at random points: order kept, nothing after cancel, nothing leaks")
    func asyncMapCancel() async {
        for round in 0..<150 {
            let executor = ThreadDrainedExecutor()
            let source = ThreadedSource(count: 500)
            weak var weakTracked: Tracked?
            weak var weakSub: TestSubscriber<Int, Never>?
            let stopped = Atomic<Bool>(false)
            do {
                let tracked = Tracked(round)
                weakTracked = tracked
                let sub = TestSubscriber<Int, Never>()
                weakSub = sub
                let delivered = Counter()
                sub.onValue = { _, _ in
                    delivered.increment()
                    return .none
                }
                source.asyncMap(maxConcurrent: 1 + round % 3, executorPreference: executor) { value in
                    await Task.yield()
                    return value * 2 + tracked.id * 0
                }.subscribe(sub)
                let finished = runConcurrently(threads: 4) { index in
                    switch index {
                    case 0: source.produce()
                    case 1, 2: executor.drain(until: { stopped.load(ordering: .acquiring) })
                    default:
                        spin((round * 211) % 20_000)
                        sub.cancel()
                        let atCancel = delivered.value
                        spin(2000)
                        // C15/C45: no new delivery starts after cancel returned (one may be in flight).
                        #expect(delivered.value <= atCancel + 1)
                        stopped.store(true, ordering: .releasing)
                    }
                }
                #expect(finished, "watchdog")
                executor.drain()
                let values = sub.values
                #expect(values == (0..<values.count).map { $0 * 2 }, "order kept")
                #expect(sub.violations.isEmpty, "\(sub.violations)")
                #expect(sub.completion == nil || sub.completion == .finished)
            }
            executor.drain()
            // The stress threads' closures also hold `sub` until those threads have fully exited.
            #expect(await eventually { weakSub == nil }, "C16 the subscriber is released")
            #expect(await eventually { weakTracked == nil }, "C16 the transform's captures are released")
        }
    }

    @Test("C46 completion handlers run exactly once each, on their queue, from many threads")
    func completionHandlers() async {
        let queue = DispatchQueue(label: "completions")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let counts = Lock<[Int: Int]>([:])
        let offQueue = Counter()
        let all = DispatchGroup()
        let finished = runConcurrently(threads: 4) { thread in
            for i in 0..<100 {
                let id = thread * 100 + i
                all.enter()
                Task(
                    operation: { () async throws -> Int in
                        if id % 3 == 0 { throw TestError() }
                        return id
                    }, queue: queue
                ) { _ in
                    if DispatchQueue.getSpecific(key: key) != 1 { offQueue.increment() }
                    counts.withLock { $0[id, default: 0] += 1 }
                    all.leave()
                }
            }
        }
        #expect(finished, "watchdog")
        let done = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: all.wait(timeout: .now() + 10) == .success) }
        }
        #expect(done)
        queue.sync {}
        #expect(counts.withLock { $0.count } == 400)
        #expect(counts.withLock { $0.values.allSatisfy { $0 == 1 } })
        #expect(offQueue.value == 0)
    }

    @Test("C47 what crosses a task boundary is Sendable")
    func sendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(Just(1).asyncMap { $0 })
        requireSendable(Just(1).values)
        requireSendable(AsyncStream<Int> { $0.finish() }.publisher)
        requireSendable(AsyncError.finishedWithoutValue)
    }
}
