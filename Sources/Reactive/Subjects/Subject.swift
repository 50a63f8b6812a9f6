/// A publisher you can push values into from outside, with `send(_:)`.
///
/// A subject is also how imperative code joins a pipeline: subscribe it to a publisher with
/// `publisher.subscribe(subject)` and it forwards that publisher's signals to its own subscribers.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let c = subject.sink { print($0) }
/// subject.send(1)                  // prints 1
/// subject.send(completion: .finished)
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to every subscriber that has demand for it.
    /// - Parameter value: The value to send.
    func send(_ value: Output)

    /// Sends a completion to every subscriber; later sends are ignored.
    /// - Parameter completion: `.finished` or `.failure(error)`.
    func send(completion: Subscribers.Completion<Failure>)

    /// Hands the subject an upstream subscription, which it asks for values once any of its own
    /// subscribers has demand.
    /// - Parameter subscription: The subscription of a publisher this subject is subscribed to.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends `()` to a subject of `Void` values.
    ///
    /// ```swift
    /// let tick = PassthroughSubject<Void, Never>()
    /// tick.send()
    /// ```
    @inlinable
    public func send() { send(()) }
}

extension Publisher {
    /// Subscribes `subject` to this publisher: the subject re-publishes every value and the completion.
    ///
    /// The subject asks this publisher for unlimited values once one of its own subscribers has
    /// demand. Cancelling (or dropping) the returned cancellable cancels the upstream subscription.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let out = subject.sink { print($0) }
    /// let link = [1, 2, 3].publisher.subscribe(subject)   // prints 1 2 3
    /// ```
    /// - Parameter subject: The subject that receives this publisher's signals.
    /// - Returns: A cancellable for the link between this publisher and the subject.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let link = SubjectSubscriber(subject)
        subscribe(link)
        return AnyCancellable(link)
    }
}
