/// A subject that holds a current value, gives it to each new subscriber, and broadcasts changes.
///
/// A new subscriber receives the current value as soon as it has demand (C11), then every later
/// value it has demand for. Setting `value` sends it. After a completion, sends are ignored (an
/// assignment to `value` only changes it) and a late subscriber receives its subscription and the
/// completion only (C30).
/// Delivery to each subscriber is serialised as for `PassthroughSubject`.
///
/// ```swift
/// let level = CurrentValueSubject<Int, Never>(1)
/// let c = level.sink { print($0) }  // prints 1
/// level.value = 2                   // prints 2
/// level.send(3)                     // prints 3
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectStorage<Output, Failure>

    /// Creates a subject whose current value is `value`.
    /// - Parameter value: The value a first subscriber receives.
    @inlinable
    public init(_ value: Output) {
        core = SubjectStorage(current: value)
    }

    deinit {
        for upstream in core.takeUpstreams() { upstream.cancel() }
    }

    /// The current value. Setting it sends the new value to the subscribers; once the subject has
    /// completed, setting it still changes it (as in Combine) but sends nothing.
    public var value: Output {
        get { core.lock.guarded { core.current! } }
        set {
            let previous = core.lock.guarded { () -> Output? in
                guard core.isCompleted else { return nil }
                defer { core.current = newValue }
                return core.current
            }
            if previous == nil { send(newValue) }
            withExtendedLifetime(previous) {}  // the old value is released after the lock
        }
    }

    /// Makes `input` the current value and sends it to every subscriber with demand.
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
extension CurrentValueSubject: @unchecked Sendable where Output: Sendable {}
