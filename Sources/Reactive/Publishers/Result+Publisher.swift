extension Result {
    /// This result as a publisher: its success value and `.finished`, or its failure.
    ///
    /// ```swift
    /// Result<Int, MyError>.success(1).publisher.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    public var publisher: Publisher { Publisher(self) }

    /// A publisher of one result: the success value (once there is demand) and `.finished`, or the
    /// failure at once.
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Success

        /// The result to publish.
        public let result: Result<Success, Failure>

        /// Creates a publisher of `result`.
        @inlinable
        public init(_ result: Result<Success, Failure>) { self.result = result }

        /// Creates a publisher of `output` and `.finished`.
        @inlinable
        public init(_ output: Success) { self.init(.success(output)) }

        /// Creates a publisher that fails with `failure`.
        @inlinable
        public init(_ failure: Failure) { self.init(.failure(failure)) }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                subscriber.receive(subscription: JustSubscription(downstream: subscriber, value: value))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }
}

extension Result.Publisher: Sendable where Success: Sendable {}
extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
