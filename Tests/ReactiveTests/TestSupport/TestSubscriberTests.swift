import Dispatch
import Foundation
import Reactive
import ReactiveTestSupport
import Testing

/// The grammar-checking subscriber's own detectors: each is fed a breach by hand (through a
/// subscription that ignores `cancel`, as a broken operator would) and must report it.
@Suite("TestSubscriber detectors", .hangLimit)
struct TestSubscriberTests {
    /// Runs `body` on a thread of its own and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }

    @Test("C25 a completion arriving from another thread while a value is inside receive is reported")
    func completionOverlappingValue() {
        let sub = TestSubscriber<Int, Never>()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        sub.onValue = { _, _ in
            inside.signal()
            release.wait()
            return .none
        }
        sub.receive(subscription: ManualPublisher<Int, Never>.ManualSubscription())
        let valueDone = DispatchSemaphore(value: 0)
        Thread {
            _ = sub.receive(1)
            valueDone.signal()
        }.start()
        inside.wait()
        onAnotherThread { sub.receive(completion: .finished) }
        release.signal()
        valueDone.wait()
        #expect(sub.violations == ["C25: completion overlapping a value"])
    }

    @Test("C25 a value from another thread while one is inside receive is reported, even with allowsNesting")
    func valueOverlappingValue() {
        let sub = TestSubscriber<Int, Never>()
        sub.allowsNesting = true
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        sub.onValue = { value, _ in
            if value == 1 {
                inside.signal()
                release.wait()
            }
            return .none
        }
        sub.receive(subscription: ManualPublisher<Int, Never>.ManualSubscription())
        let valueDone = DispatchSemaphore(value: 0)
        Thread {
            _ = sub.receive(1)
            valueDone.signal()
        }.start()
        inside.wait()
        onAnotherThread { _ = sub.receive(2) }
        release.signal()
        valueDone.wait()
        #expect(sub.violations == ["C25: overlapping receive"])
    }

    @Test("a completion sent from inside receive on the same thread is nesting, not an overlap")
    func nestedCompletionIsNoOverlap() {
        let sub = TestSubscriber<Int, Never>()
        sub.onValue = { _, sub in
            sub.receive(completion: .finished)
            return .none
        }
        sub.receive(subscription: ManualPublisher<Int, Never>.ManualSubscription())
        _ = sub.receive(1)
        #expect(sub.violations == [])
        #expect(sub.matches([.subscription, .value(1), .finished]))
    }

    @Test("C15 nothing may start on a thread after its cancel() returned; other threads' late deliveries are recorded")
    func nothingAfterCancel() {
        let sub = TestSubscriber<Int, Never>()
        let subscription = ManualPublisher<Int, Never>.ManualSubscription()
        sub.receive(subscription: subscription)
        _ = sub.receive(1)
        #expect(sub.eventsAfterCancel == [])
        sub.cancel()
        #expect(subscription.isCancelled)
        // Another thread: a delivery that may have been in flight; recorded, not a breach.
        onAnotherThread { _ = sub.receive(2) }
        #expect(sub.violations == [])
        // The cancelling thread itself: a breach, the completion too.
        _ = sub.receive(3)
        sub.receive(completion: .finished)
        #expect(
            sub.violations == [
                "C15: value after cancel on the cancelling thread",
                "C15: completion after cancel on the cancelling thread",
            ])
        #expect(sub.eventsAfterCancel == [.value(2), .value(3), .finished])
    }

    @Test("a cancel before any subscription arrived marks nothing")
    func cancelWithoutSubscription() {
        let sub = TestSubscriber<Int, Never>()
        sub.cancel()
        sub.receive(subscription: ManualPublisher<Int, Never>.ManualSubscription())
        _ = sub.receive(1)
        #expect(sub.violations == [])
        #expect(sub.eventsAfterCancel == [])
    }
}
