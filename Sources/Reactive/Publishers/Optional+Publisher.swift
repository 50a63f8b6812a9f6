extension Optional {
    /// This optional as a publisher: its value (once there is demand) and `.finished`, or only
    /// `.finished` when it is `nil`.
    ///
    /// ```swift
    /// Optional(3).publisher.sink { print($0) }   // 3
    /// ```
    public var publisher: Publisher { Publisher(self) }

    /// A publisher of at most one value; it never fails.
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The value to publish, if any.
        public let output: Wrapped?

        /// Creates a publisher of `output`'s value, if it has one.
        @inlinable
        public init(_ output: Wrapped?) { self.output = output }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(subscription: JustSubscription(downstream: subscriber, value: output))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Optional.Publisher: Sendable where Wrapped: Sendable {}
extension Optional.Publisher: Equatable where Wrapped: Equatable {}
