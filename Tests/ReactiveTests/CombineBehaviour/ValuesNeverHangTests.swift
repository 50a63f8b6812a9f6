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

    func send(_ value: Output) { _ = lock.guarded({ target })?.receive(value) }
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

    @Test("a value that arrives before the subscription is returned by the waiting next()")
    func valueBeforeSubscription() {
        let upstream = LoosePublisher<Int, Never>()
        let seen = loop(upstream) { executor in
            upstream.send(7)
            executor.drain()
        }
        #expect(seen == ["7"])
    }

    @Test("values and .finished sent before the first next() and the subscription are delivered, then nil")
    func valueBeforeFirstNext() {
        let upstream = EagerLoosePublisher()
        let seen = throwingLoop(upstream) { _ in }
        #expect(seen == ["3", "end"])
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

    @Test("the bridge's subscriber is Cancellable: cancelling it ends both loops, also a second time",
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
