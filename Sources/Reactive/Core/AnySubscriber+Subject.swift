extension AnySubscriber {
    /// Wraps `subject` as a subscriber: values and the completion are sent to it.
    ///
    /// The subject receives the upstream subscription (`send(subscription:)`) and asks for
    /// unlimited values once one of its own subscribers has demand, as `subscribe(_:)` with a
    /// subject does. Each value returns no extra demand.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let out = subject.sink { print($0) }
    /// [1, 2, 3].publisher.subscribe(AnySubscriber(subject))   // prints 1 2 3
    /// ```
    /// - Parameter subject: The subject to feed.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(subject))
    }
}
