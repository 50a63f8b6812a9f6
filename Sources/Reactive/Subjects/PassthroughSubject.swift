/// A subject that broadcasts values to its current subscribers and keeps none of them.
///
/// A value reaches a subscriber only if that subscriber has outstanding demand when it is sent;
/// otherwise it is dropped for that subscriber (C11). Each subscriber receives its signals one at a
/// time, even when several threads send at once (C25).
///
/// A value sent from inside a subscriber's `receive(_:)` reaches that subscriber after the current
/// call returns (a trampoline, so there is no recursion and no deadlock, C22); the subject's other
/// subscribers receive it at once.
///
/// No lock is held while a subscriber is called. A thread that sends to an idle subscriber
/// delivers to it, and also delivers the values other threads send to that subscriber meanwhile
/// (they queue them and return at once), so a sending thread can be kept busy for as long as
/// others keep sending.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let c = subject.sink { print($0) }
/// subject.send("hello")             // prints hello
/// subject.send(completion: .finished)
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectStorage<Output, Failure>

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {
        core = SubjectStorage(current: nil)
    }

    deinit {
        for upstream in core.takeUpstreams() { upstream.cancel() }
    }

    @inlinable
    public func send(_ input: Output) {
        core.send(input)
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, owner: self)
    }
}

// @unchecked: all state lives in `core` and is read and written only under its lock.
extension PassthroughSubject: @unchecked Sendable where Output: Sendable {}
