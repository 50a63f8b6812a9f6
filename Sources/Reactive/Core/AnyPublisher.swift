/// A publisher that hides the type of the publisher it wraps.
///
/// Erasure costs one indirect call per signal, not unspecialised code on either side: the
/// wrapped publisher is subscribed from code specialised for it when it was erased, with an
/// `ErasedSubscriber` (one concrete class per `Output` and `Failure`), and that subscriber calls
/// the real one through closures made where the real one's type is known. So the operators
/// downstream run as fast as they do unerased (a `count()` behind an `AnyPublisher` ran
/// unspecialised before, looking up generic metadata on every value: 90 times slower).
///
/// ```swift
/// func numbers() -> AnyPublisher<Int, Never> {
///     [1, 2, 3].publisher.map { $0 * 2 }.eraseToAnyPublisher()
/// }
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline let box: PublisherBoxBase<Output, Failure>

    /// Wraps `publisher`.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let already = publisher as? AnyPublisher<Output, Failure> {
            box = already.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if let erased = subscriber as? ErasedSubscriber<Output, Failure> {
            box.subscribeBody(box, erased)
        } else {
            box.subscribeBody(box, ErasedSubscriberOf(subscriber))
        }
    }

    public var description: String { "AnyPublisher" }
}

extension AnyPublisher: Sendable where Output: Sendable {}

extension Publisher {
    /// Hides this publisher's type behind `AnyPublisher`.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

/// The type-erased part of an `AnyPublisher`: how to subscribe the wrapped publisher.
@usableFromInline
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: immutable (a capture-free function; the one subclass adds only a `let` publisher).
    /// Subscribes the wrapped publisher; made where its type was known, so the subscription it
    /// creates is specialised for it and for `ErasedSubscriber<Output, Failure>`. Capture-free (it
    /// is handed its box), so calling it retains nothing.
    @usableFromInline let subscribeBody: (PublisherBoxBase, ErasedSubscriber<Output, Failure>) -> Void

    @inlinable
    init(subscribe: @escaping (PublisherBoxBase, ErasedSubscriber<Output, Failure>) -> Void) {
        subscribeBody = subscribe
    }
}

@usableFromInline
final class PublisherBox<P: Publisher>: PublisherBoxBase<P.Output, P.Failure>, @unchecked Sendable {
    // @unchecked: `base` is an immutable publisher value, only ever subscribed to (as Combine's box is).
    @usableFromInline let base: P

    @inlinable
    init(_ base: P) {
        self.base = base
        super.init { box, subscriber in
            unsafeDowncast(box, to: PublisherBox<P>.self).base.receive(subscriber: subscriber)
        }
    }
}

/// What an `AnyPublisher` subscribes its wrapped publisher with: a concrete class per `Input` and
/// `Failure`, so the wrapped publisher's subscription is specialised code calling it directly, and
/// it calls the real subscriber through capture-free functions made where that subscriber's type
/// was known (`ErasedSubscriberOf`): one indirect call per signal. Its identity is the real
/// subscriber's (`combineIdentifier`, `description`).
@usableFromInline
class ErasedSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let receiveSubscriptionBody: (ErasedSubscriber, any Subscription) -> Void
    @usableFromInline let receiveValueBody: (ErasedSubscriber, Input) -> Subscribers.Demand
    @usableFromInline let receiveCompletionBody: (ErasedSubscriber, Subscribers.Completion<Failure>) -> Void
    /// `receive(subscription:handOff:)` (`ReleaseHandOff.swift`): passed on to the real
    /// subscriber when it is a relay itself, else its plain `receive(subscription:)`.
    @usableFromInline let receiveHandOffBody: (ErasedSubscriber, any Subscription, any ReleaseHandOffSource) -> Void
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(
        combineIdentifier: CombineIdentifier,
        receiveSubscription: @escaping (ErasedSubscriber, any Subscription) -> Void,
        receiveValue: @escaping (ErasedSubscriber, Input) -> Subscribers.Demand,
        receiveCompletion: @escaping (ErasedSubscriber, Subscribers.Completion<Failure>) -> Void,
        receiveHandOff: @escaping (ErasedSubscriber, any Subscription, any ReleaseHandOffSource) -> Void
    ) {
        self.combineIdentifier = combineIdentifier
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        receiveHandOffBody = receiveHandOff
    }

    @inlinable final func receive(subscription: any Subscription) { receiveSubscriptionBody(self, subscription) }
    @inlinable final func receive(_ input: Input) -> Subscribers.Demand { receiveValueBody(self, input) }
    @inlinable final func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(self, completion) }

    /// The real subscriber's description.
    @usableFromInline var description: String { "AnyPublisher" }
}

/// An `ErasedSubscriber` holding a subscriber of type `S`.
@usableFromInline
final class ErasedSubscriberOf<S: Subscriber>: ErasedSubscriber<S.Input, S.Failure> {
    @usableFromInline let subscriber: S

    @inlinable
    init(_ subscriber: S) {
        self.subscriber = subscriber
        super.init(
            combineIdentifier: subscriber.combineIdentifier,
            receiveSubscription: { unsafeDowncast($0, to: ErasedSubscriberOf<S>.self).subscriber.receive(subscription: $1) },
            receiveValue: { unsafeDowncast($0, to: ErasedSubscriberOf<S>.self).subscriber.receive($1) },
            receiveCompletion: { unsafeDowncast($0, to: ErasedSubscriberOf<S>.self).subscriber.receive(completion: $1) },
            receiveHandOff: { erased, subscription, handOff in
                let subscriber = unsafeDowncast(erased, to: ErasedSubscriberOf<S>.self).subscriber
                handSubscription(subscription, handOff: handOff, to: subscriber)
            })
    }

    @usableFromInline override var description: String { String(describing: subscriber) }
}

/// It calls the real subscriber only from inside its upstream's calls, so a source that takes a
/// cancelled sink's release over may reach a `Sink` through it (an erased sequence or subject
/// feeding `scan`, `map` or a sink directly): the promise is passed on when the real subscriber
/// keeps it, and dropped (a plain subscription) when it does not.
extension ErasedSubscriber: ReleaseHandOffRelay {
    @inlinable
    final func receive(subscription: any Subscription, handOff: any ReleaseHandOffSource) {
        receiveHandOffBody(self, subscription, handOff)
    }
}
