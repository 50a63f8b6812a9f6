import Foundation
import Reactive
import ReactiveTestSupport
import Testing

/// Runs an action when released: a user object whose deinit calls back into the pipeline.
final class OnRelease: @unchecked Sendable {
    // @unchecked: the action is set once, in init, and only run by deinit.
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}

/// C23: no lock is held while user objects are released. Each case captures an object in the
/// operator's closure whose deinit sends into the subject upstream of it; cancelling the pipeline
/// releases the closure, and must do so after the operator's lock is dropped.
@Suite("Operators: user closures are released after the lock")
struct ReleaseOutsideLockTests {
    typealias Subject = PassthroughSubject<Int, Never>

    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (Subject, OnRelease) -> AnyPublisher<Int, Never>
    }

    static let cases: [Case] = [
        Case(description: "filter (StepEngine)") { s, held in s.filter { _ in withExtendedLifetime(held) { true } }.eraseToAnyPublisher() },
        Case(description: "reduce (StepEngine, reducer)") { s, held in s.reduce(0) { a, b in withExtendedLifetime(held) { a + b } }.eraseToAnyPublisher() },
        Case(description: "handleEvents (EventSubscription)") { s, held in
            s.handleEvents(receiveOutput: { _ in withExtendedLifetime(held) {} }).eraseToAnyPublisher()
        },
        Case(description: "flatMap (MergeEngine)") { s, held in s.flatMap { v in withExtendedLifetime(held) { Just(v) } }.eraseToAnyPublisher() },
        Case(description: "zip (CombinerEngine)") { s, held in
            s.zip(Just(1).map { v in withExtendedLifetime(held) { v } }) { a, _ in a }.eraseToAnyPublisher()
        },
        Case(description: "prefix(untilOutputFrom:)") { s, held in
            s.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false).map { v in withExtendedLifetime(held) { v } })
                .eraseToAnyPublisher()
        },
        Case(description: "catch (RelayEngine)") { s, held in
            s.setFailureType(to: TestError.self).catch { _ in withExtendedLifetime(held) { Just(0) } }.eraseToAnyPublisher()
        },
    ]

    @Test("C23 cancel releases a closure whose capture re-enters the pipeline, without deadlock", arguments: cases)
    func cancelReleasesOutsideLock(_ c: Case) {
        let subject = Subject()
        let sub = TestSubscriber<Int, Never>()
        do {
            let held = OnRelease { subject.send(99) }
            c.make(subject, held).subscribe(sub)
        }
        subject.send(1)
        let subscriber = sub
        #expect(returnsInTime { subscriber.cancel() })
    }
}

/// A subscriber that asks its subscription for more as it is released: a user object whose deinit
/// re-enters the subscription that held it.
private final class RequestsOnRelease: Subscriber, @unchecked Sendable {
    // @unchecked: set once in `receive(subscription:)`, read by deinit, in one test's thread.
    typealias Input = Int
    typealias Failure = Never
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
    deinit { subscription?.request(.max(1)) }
}

@Suite("Publishers: the subscriber is released after the lock")
struct SubscriberReleaseOutsideLockTests {
    @Test("C23 cancelling a sequence publisher's subscription releases its subscriber without deadlock")
    func sequenceCancelReleasesOutsideLock() {
        var subscriber: RequestsOnRelease? = RequestsOnRelease()
        [1, 2, 3].publisher.subscribe(subscriber!)
        // Handed to the thread that cancels; nothing else touches it meanwhile.
        nonisolated(unsafe) let subscription = subscriber!.subscription!
        // From here only the subscription keeps the subscriber alive.
        subscriber = nil
        #expect(returnsInTime { subscription.cancel() })
    }
}
