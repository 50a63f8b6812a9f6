import Dispatch
import Foundation
import Testing
import Reactive
import ReactiveTestSupport

/// C16/C17/C19 for every combining operator: cancel and termination drop the downstream even while
/// the sources (which keep their subscribers) stay alive.
@Suite("Combining: lifecycle")
struct CombiningLifecycleTests {
    typealias Source = ManualPublisher<Int, TestError>

    /// Builds an operator over two manual sources.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (Source, Source) -> AnyPublisher<Int, TestError>
    }

    static let cases: [Case] = [
        Case(description: "flatMap") { a, b in a.flatMap { _ in b }.eraseToAnyPublisher() },
        Case(description: "merge") { a, b in a.merge(with: b).eraseToAnyPublisher() },
        Case(description: "zip") { a, b in a.zip(b) { $0 + $1 }.eraseToAnyPublisher() },
        Case(description: "combineLatest") { a, b in a.combineLatest(b) { $0 + $1 }.eraseToAnyPublisher() },
        Case(description: "append") { a, b in a.append(b).eraseToAnyPublisher() },
        Case(description: "catch") { a, b in a.catch { _ in b }.eraseToAnyPublisher() },
        Case(description: "retry") { a, _ in a.retry(2).eraseToAnyPublisher() },
        Case(description: "prefix(untilOutputFrom:)") { a, b in a.prefix(untilOutputFrom: b).eraseToAnyPublisher() },
        Case(description: "drop(untilOutputFrom:)") { a, b in a.drop(untilOutputFrom: b).eraseToAnyPublisher() },
        Case(description: "switchToLatest") { a, b in a.map { _ in b }.switchToLatest().eraseToAnyPublisher() },
    ]

    @Test("C16 cancel releases the downstream while the sources live on", arguments: cases)
    func cancelReleases(_ c: Case) {
        let a = Source()
        let b = Source()
        weak var weakSub: TestSubscriber<Int, TestError>?
        do {
            let sub = TestSubscriber<Int, TestError>()
            weakSub = sub
            c.make(a, b).subscribe(sub)
            a.send(1)
            sub.cancel()
        }
        #expect(weakSub == nil)
        #expect(a.subscriptions.allSatisfy { $0.isCancelled })
    }

    /// An operator over a live source `a` that keeps `held` (a publisher or a closure's capture)
    /// for a later phase.
    struct HeldCase: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (Source, Tracker) -> AnyPublisher<Int, TestError>
    }

    /// Something an operator keeps; held weakly by the test.
    final class Tracker: Publisher, Sendable {
        typealias Output = Int
        typealias Failure = TestError
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            Empty<Int, TestError>().receive(subscriber: subscriber)
        }
    }

    static let heldCases: [HeldCase] = [
        HeldCase(description: "append: the suffix") { a, held in a.append(held).eraseToAnyPublisher() },
        HeldCase(description: "prepend: the publisher prepended to") { a, held in held.prepend(a).eraseToAnyPublisher() },
        HeldCase(description: "catch: the handler's capture") { a, held in
            a.catch { _ in withExtendedLifetime(held) { Empty<Int, TestError>() } }.eraseToAnyPublisher()
        },
    ]

    @Test("C16 C19 cancel releases what an operator kept for a later phase while the source lives on", arguments: heldCases)
    func cancelReleasesHeld(_ c: HeldCase) {
        let a = Source()
        weak var weakHeld: Tracker?
        let sub = TestSubscriber<Int, TestError>()
        do {
            let held = Tracker()
            weakHeld = held
            c.make(a, held).subscribe(sub)
        }
        a.send(1)
        #expect(weakHeld != nil, "never cancelled: kept")
        sub.cancel()
        #expect(weakHeld == nil)
        #expect(a.subscriptions.allSatisfy { $0.isCancelled })
    }

    @Test("C17 termination releases the downstream without any cancel", arguments: cases)
    func terminationReleases(_ c: Case) {
        let a = Source()
        let b = Source()
        weak var weakSub: TestSubscriber<Int, TestError>?
        do {
            let sub = TestSubscriber<Int, TestError>()
            weakSub = sub
            c.make(a, b).subscribe(sub)
            // Fail everything that may be subscribed until the output terminates.
            for _ in 0..<4 where sub.completion == nil {
                a.send(completion: .failure(TestError()))
                b.send(completion: .failure(TestError()))
            }
            #expect(sub.completion != nil)
        }
        #expect(weakSub == nil)
    }

    @Test("C21 C23 request and cancel from inside receive: no deadlock, nothing after the cancel", arguments: cases)
    func reentrantCancel(_ c: Case) {
        let a = Source()
        let b = Source()
        let sub = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        sub.onValue = { _, s in
            s.request(.max(1))
            s.cancel()
            return .max(1)
        }
        c.make(a, b).subscribe(sub)
        for i in 0..<3 {
            a.send(i)
            b.send(i)
        }
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(sub.values.count == 1)
        #expect(sub.completion == nil)
        #expect(sub.violations.isEmpty)
    }

    /// The merging and combining engines call their downstream in place, without a reference of
    /// their own for the call: a cancel while a value is in flight leaves the release to the
    /// thread delivering.
    static let combinerCases = cases.filter { ["zip", "combineLatest", "merge", "flatMap", "switchToLatest"].contains($0.description) }

    /// A subscriber that blocks in `receive` until told, and says when it got there.
    final class BlockingSubscriber: Subscriber, @unchecked Sendable {
        // @unchecked: `subscription` is written once, in `receive(subscription:)`, before any value.
        typealias Input = Int
        typealias Failure = TestError
        var subscription: (any Subscription)?
        let entered: DispatchSemaphore
        let proceed: DispatchSemaphore
        init(entered: DispatchSemaphore, proceed: DispatchSemaphore) {
            self.entered = entered
            self.proceed = proceed
        }
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            entered.signal()
            _ = proceed.wait(timeout: .now() + 10)
            return .none
        }
        func receive(completion: Subscribers.Completion<TestError>) {}
    }

    @Test("C16 a cancel from another thread during receive: the downstream lives until receive returns, then is released", arguments: combinerCases)
    func cancelDuringDelivery(_ c: Case) {
        let a = Source()
        let b = Source()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        weak var weakSub: BlockingSubscriber?
        var subscription: (any Subscription)?
        do {
            let sub = BlockingSubscriber(entered: entered, proceed: proceed)
            weakSub = sub
            c.make(a, b).subscribe(sub)
            subscription = sub.subscription
            // A thread of its own, not DispatchQueue.global(): on Linux its jobs wait while the
            // cooperative pool's threads are busy, and the parallel run's synchronous tests keep
            // both busy for seconds, past the 10 s waits below.
            Thread {
                // The first value the downstream gets (merge: 1; zip, combineLatest: the pair;
                // flatMap, switchToLatest: 2 from the inner) blocks in receive until `proceed`.
                a.send(1)
                b.send(2)
                delivered.signal()
            }.start()
            #expect(entered.wait(timeout: .now() + 10) == .success)
        }
        // Only the engine references the subscriber now; it is inside `receive` on the other thread.
        subscription?.cancel()
        #expect(weakSub != nil, "released under a delivery in flight")
        proceed.signal()
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        #expect(weakSub == nil, "the delivering thread released it once receive returned")
        #expect(a.subscriptions.allSatisfy { $0.isCancelled })
        subscription = nil
    }

    @Test("C16 C21 a cancel from inside receive releases the downstream once receive returns", arguments: combinerCases)
    func cancelInsideReceiveReleases(_ c: Case) {
        let a = Source()
        let b = Source()
        weak var weakSub: TestSubscriber<Int, TestError>?
        do {
            let sub = TestSubscriber<Int, TestError>()
            weakSub = sub
            sub.onValue = { _, s in
                s.cancel()
                return .none
            }
            c.make(a, b).subscribe(sub)
            a.send(1)
            b.send(2)
            #expect(sub.values.count == 1)
        }
        #expect(weakSub == nil)
        a.send(3)
        b.send(4)
    }

    @Test("C20 request(.max(1)) from inside receive over 10,000 synchronous values never nests")
    func noRecursion() {
        func check(_ name: String, _ publisher: AnyPublisher<Int, Never>, count: Int) {
            let sub = TestSubscriber<Int, Never>(initialDemand: .max(1))
            sub.onValue = { _, s in
                s.request(.max(1))
                return .none
            }
            publisher.subscribe(sub)
            #expect(sub.values.count == count, "\(name)")
            #expect(sub.maxNesting <= 1, "\(name)")
            #expect(sub.completion == .finished, "\(name)")
            #expect(sub.violations.isEmpty, "\(name)")
        }
        let n = 10_000
        check("merge", (1...n).publisher.merge(with: (1...n).publisher).eraseToAnyPublisher(), count: 2 * n)
        check("flatMap", (1...n).publisher.flatMap(maxPublishers: .max(2)) { [$0].publisher }.eraseToAnyPublisher(), count: n)
        check("zip", (1...n).publisher.zip((1...n).publisher) { $0 + $1 }.eraseToAnyPublisher(), count: n)
        check("combineLatest", (1...n).publisher.combineLatest(Just(0)) { $0 + $1 }.eraseToAnyPublisher(), count: n)
        check("append", (1...n).publisher.append(1...n).eraseToAnyPublisher(), count: 2 * n)
        check("retry", (1...n).publisher.retry(1).eraseToAnyPublisher(), count: n)
        check("prefix(untilOutputFrom:)", (1...n).publisher.prefix(untilOutputFrom: Empty<Int, Never>()).eraseToAnyPublisher(), count: n)
        check("switchToLatest", Just((1...n).publisher).switchToLatest().eraseToAnyPublisher(), count: n)
    }

    @Test("Equatable like Combine's")
    func equatable() {
        #expect(Just(1).merge(with: Just(2)) == Just(1).merge(with: Just(2)))
        #expect(Just(1).zip(Just(2)) != Just(1).zip(Just(3)))
        #expect(Just(1).append(Just(2)) == Publishers.Concatenate(prefix: Just(1), suffix: Just(2)))
        #expect(Publishers.Retry(upstream: Just(1), retries: 2) == Publishers.Retry(upstream: Just(1), retries: 2))
    }

    @Test("C06 a second subscription to an input is cancelled; the first is kept")
    func secondSubscription() {
        typealias Captured = any Subscriber<Int, TestError>
        func check(_ name: String, _ build: (AnyPublisher<Int, TestError>) -> AnyPublisher<Int, TestError>) {
            var captured: Captured?
            let input = AnyPublisher<Int, TestError>(CapturingPublisher<Int, TestError> { captured = $0 })
            let sub = TestSubscriber<Int, TestError>()
            build(input).subscribe(sub)
            let first = ProbeSubscription()
            let second = ProbeSubscription()
            captured?.receive(subscription: first)
            captured?.receive(subscription: second)
            #expect(captured != nil, "\(name)")
            #expect(second.isCancelled, "\(name)")
            #expect(!first.isCancelled, "\(name)")
        }
        check("merge") { $0.merge(with: Empty(completeImmediately: false)).eraseToAnyPublisher() }
        check("zip") { $0.zip(Empty<Int, TestError>(completeImmediately: false)) { $0 + $1 }.eraseToAnyPublisher() }
        check("append") { $0.append(1).eraseToAnyPublisher() }
        check("catch") { $0.catch { _ in Just(1).setFailureType(to: TestError.self) }.eraseToAnyPublisher() }
        check("retry") { $0.retry(1).eraseToAnyPublisher() }
        check("prefix(untilOutputFrom:)") { $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).eraseToAnyPublisher() }
        check("flatMap inner") { input in Just(0).setFailureType(to: TestError.self).flatMap { _ in input }.eraseToAnyPublisher() }
    }

    @Test("C23 zip: cancel releases a buffered value after the lock, so its deinit may send into an input")
    func zipReleasesBufferOutsideLock() {
        let a = PassthroughSubject<OnRelease, Never>()
        let b = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<(OnRelease, Int), Never>()
        a.zip(b).subscribe(sub)
        a.send(OnRelease { b.send(1) })  // waits in the buffer for a value of b
        let subscriber = sub
        #expect(returnsInTime { subscriber.cancel() })
        #expect(sub.values.isEmpty)
    }

    @Test("C23 combineLatest: a replaced latest value is released after the lock, so its deinit may send into an input")
    func combineLatestReleasesReplacedOutsideLock() {
        let a = PassthroughSubject<OnRelease, Never>()
        let b = PassthroughSubject<Int, Never>()
        let sub = TestSubscriber<(OnRelease, Int), Never>()
        a.combineLatest(b).subscribe(sub)
        a.send(OnRelease { b.send(7) })
        // Replacing the first value releases it; its deinit sends 7, combined with the new value.
        #expect(returnsInTime { a.send(OnRelease {}) })
        #expect(sub.values.map(\.1) == [7])
        let subscriber = sub
        #expect(returnsInTime { subscriber.cancel() })
    }
}
