import Reactive
import ReactiveTestSupport
import Testing

/// A publisher that misbehaves on purpose: it keeps each subscriber and lets the test send it
/// values and completions before (or without) a subscription, hand it a subscription later, or
/// cancel it through `Cancellable`, as some Combine test doubles and hand-written publishers do.
final class LoosePublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored var is read and written only under `lock`.
    private let lock = Lock()
    private var target: AnySubscriber<Output, Failure>?
    private var cancellable: (any Cancellable)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.guarded {
            target = AnySubscriber(subscriber)
            cancellable = subscriber as? any Cancellable
        }
    }

    /// Whether the subscriber it got is `Cancellable` (Combine's bridge subscriber is).
    var subscriberIsCancellable: Bool { lock.guarded { cancellable != nil } }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { lock.guarded({ target })?.receive(value) ?? .none }
    func send(completion: Subscribers.Completion<Failure>) { lock.guarded({ target })?.receive(completion: completion) }

    /// Hands the subscriber its (late) subscription.
    @discardableResult
    func subscribeNow() -> ManualPublisher<Output, Failure>.ManualSubscription {
        let subscription = ManualPublisher<Output, Failure>.ManualSubscription()
        lock.guarded({ target })?.receive(subscription: subscription)
        return subscription
    }

    /// Cancels the subscriber as a `Cancellable`, as a publisher may.
    func cancelSubscriber() { lock.guarded({ cancellable })?.cancel() }
}

/// Sends 3 and `.finished` to each subscriber at once, without ever giving it a subscription.
struct EagerLoosePublisher: Publisher {
    typealias Output = Int
    typealias Failure = TestError
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        _ = subscriber.receive(3)
        subscriber.receive(completion: .finished)
    }
}

// Issue #20 item 11 and C07: whatever the upstream does, no `next()` of `values` waits forever.
// Combine facts: Combine's `AsyncPublisher`/`AsyncThrowingPublisher` subscriber takes a value or a
// completion that arrives before its subscription (returns the value, returns nil, throws), and
// it conforms to `Cancellable` (its subscriber is a `Subscriber & Cancellable`, so cancelling it
// ends the iteration). Source: the OpenCombine project's AsyncPublisher behaviour tests, which are
// checked against Apple's Combine, and Apple's `AsyncPublisher` documentation.
@Suite("Combine behaviour: values never leaves next() waiting")
struct ValuesNeverHangTests {
    /// Runs a `for await` loop over `values` on a drained executor and returns what it logged;
    /// whatever happened, the task is cancelled afterwards, so a broken bridge fails, not hangs.
    private func loop<P: Publisher>(
        _ publisher: P, _ steps: (DrainExecutor) -> Void
    ) -> [String] where P.Failure == Never, P.Output == Int, P: Sendable {
        let executor = DrainExecutor()
        let log = BridgeLog()
        let task = Task(executorPreference: executor) {
            for await value in publisher.values { log.append("\(value)") }
            log.append(Task.isCancelled ? "cancelled" : "end")
        }
        executor.drain()
        steps(executor)
        let seen = log.all
        task.cancel()
        executor.drain()
        return seen
    }

    private func throwingLoop<P: Publisher>(
        _ publisher: P, _ steps: (DrainExecutor) -> Void
    ) -> [String] where P.Failure == TestError, P.Output == Int, P: Sendable {
        let executor = DrainExecutor()
        let log = BridgeLog()
        let task = Task(executorPreference: executor) {
            do {
                for try await value in publisher.values { log.append("\(value)") }
                log.append(Task.isCancelled ? "cancelled" : "end")
            } catch {
                log.append("threw \(error)")
            }
        }
        executor.drain()
        steps(executor)
        let seen = log.all
        task.cancel()
        executor.drain()
        return seen
    }

    // Issue 41 and the reference suite's recorded behaviour (OpenCombine's
    // PublisherConcurrencyTests.testNonThrowingReceiveInputBeforeSubscription, checked against
    // Combine): a value before the subscription is not handed to a waiting next(); the waiting
    // next() returns nil, so the loop ends.
    @Test("a value that arrives before the subscription ends the waiting next() with nil")
    func valueBeforeSubscription() {
        let upstream = LoosePublisher<Int, Never>()
        let seen = loop(upstream) { executor in
            upstream.send(7)
            executor.drain()
        }
        #expect(seen == ["end"])
    }

    // The same recorded behaviour: Combine's bridge keeps no value from before its subscription
    // ("No subscription -> no crash", the value answered with .none), so a value sent before the
    // first next() is dropped and the .finished after it ends the loop.
    @Test("a value sent before the first next() and the subscription is dropped; .finished then ends the loop")
    func valueBeforeFirstNext() {
        let upstream = EagerLoosePublisher()
        let seen = throwingLoop(upstream) { _ in }
        #expect(seen == ["end"])
    }

    // Issue 41's report and the reference suite's recorded behaviour (OpenCombine's
    // testNonThrowingReceiveInputBeforeSubscription and testThrowingReceiveInputBeforeSubscription,
    // checked against Combine): two next() calls wait, a value arrives before the subscription,
    // both return nil, and the subscription that comes later is asked for .max(2).
    @Test(
        "two next() waiting, a value before the subscription: both return nil, the later subscription is asked for .max(2)",
        arguments: [false, true])
    func twoWaitersAndAValueBeforeSubscription(throwing: Bool) {
        let executor = DrainExecutor()
        let log = BridgeLog()
        let shared: SharedNext
        let send: (Int) -> Subscribers.Demand
        let subscribeNow: () -> [Subscribers.Demand]
        if throwing {
            let upstream = LoosePublisher<Int, TestError>()
            let iterator = upstream.values.makeAsyncIterator()
            shared = SharedNext {
                var copy = iterator
                return try await copy.next()
            }
            send = { upstream.send($0) }
            subscribeNow = { upstream.subscribeNow().requested }
        } else {
            let upstream = LoosePublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            shared = SharedNext {
                var copy = iterator
                return await copy.next()
            }
            send = { upstream.send($0) }
            subscribeNow = { upstream.subscribeNow().requested }
        }
        let tasks = (0..<2).map { index in
            Task(executorPreference: executor) {
                let value = try? await shared.next()
                log.append("next \(index): \(value.flatMap { $0 }.map(String.init) ?? "nil")")
            }
        }
        executor.drain()
        #expect(log.all.isEmpty, "both next() calls wait for the subscription")
        #expect(send(42) == .none)
        executor.drain()
        #expect(log.all.sorted() == ["next 0: nil", "next 1: nil"])
        #expect(subscribeNow() == [.max(2)])
        for task in tasks { task.cancel() }
        executor.drain()
    }

    @Test(".finished before the subscription ends the loop (next() returns nil)")
    func finishedBeforeSubscription() {
        let upstream = LoosePublisher<Int, Never>()
        let seen = loop(upstream) { executor in
            upstream.send(completion: .finished)
            executor.drain()
        }
        #expect(seen == ["end"])
    }

    @Test("a failure before the subscription is thrown by next()")
    func failureBeforeSubscription() {
        let upstream = LoosePublisher<Int, TestError>()
        let seen = throwingLoop(upstream) { executor in
            upstream.send(completion: .failure(TestError("early")))
            executor.drain()
        }
        #expect(seen == ["threw early"])
    }

    @Test("a late subscription after the loop ended is cancelled")
    func lateSubscriptionCancelled() {
        let upstream = LoosePublisher<Int, Never>()
        _ = loop(upstream) { executor in
            upstream.send(completion: .finished)
            executor.drain()
            let late = upstream.subscribeNow()
            #expect(late.isCancelled)
            #expect(late.requested.isEmpty)
        }
    }

    @Test(
        "the bridge's subscriber is Cancellable: cancelling it ends both loops, also a second time",
        arguments: [false, true])
    func cancellingTheSubscriberEndsTheLoop(throwing: Bool) {
        if throwing {
            let upstream = LoosePublisher<Int, TestError>()
            let seen = throwingLoop(upstream) { executor in
                let subscription = upstream.subscribeNow()
                executor.drain()
                #expect(subscription.requested == [.max(1)])
                #expect(upstream.subscriberIsCancellable)
                upstream.cancelSubscriber()
                upstream.cancelSubscriber()
                executor.drain()
                #expect(subscription.isCancelled)
            }
            #expect(seen == ["end"])
        } else {
            let upstream = LoosePublisher<Int, Never>()
            let seen = loop(upstream) { executor in
                upstream.subscribeNow()
                executor.drain()
                #expect(upstream.subscriberIsCancellable)
                upstream.cancelSubscriber()
                upstream.cancelSubscriber()
                executor.drain()
            }
            #expect(seen == ["end"])
        }
    }
}

/// One `values` iterator shared by two tasks, as the reference suite's `IteratorWrapper` does.
private final class SharedNext: @unchecked Sendable {
    // @unchecked: the tests run every task that calls it on one serial `DrainExecutor`, one job at a time.
    let next: () async throws -> Int?

    init(_ next: @escaping () async throws -> Int?) { self.next = next }
}
