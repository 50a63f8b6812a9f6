/// A subscriber that hides the type of the subscriber it wraps, or is built from closures.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let receiveSubscriptionBody: ((any Subscription) -> Void)?
    @usableFromInline let receiveValueBody: ((Input) -> Subscribers.Demand)?
    @usableFromInline let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
    public let combineIdentifier: CombineIdentifier
    @usableFromInline let descriptionText: String

    /// Wraps `subscriber`; its identity is kept.
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let already = subscriber as? AnySubscriber<Input, Failure> {
            self = already
            return
        }
        receiveSubscriptionBody = subscriber.receive(subscription:)
        receiveValueBody = subscriber.receive(_:)
        receiveCompletionBody = subscriber.receive(completion:)
        combineIdentifier = subscriber.combineIdentifier
        descriptionText = String(describing: subscriber)
    }

    /// Builds a subscriber from closures; a missing closure ignores its event (and a missing
    /// value closure asks for no more values).
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        combineIdentifier = CombineIdentifier()
        descriptionText = "Anonymous AnySubscriber"
    }

    @inlinable public func receive(subscription: any Subscription) { receiveSubscriptionBody?(subscription) }
    @inlinable public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody?(value) ?? .none }
    @inlinable public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody?(completion) }

    public var description: String { descriptionText }
}
