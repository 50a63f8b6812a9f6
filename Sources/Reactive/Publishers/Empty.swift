/// A publisher that never emits a value and finishes at once (or never, if asked).
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether it finishes as soon as it is subscribed to.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    /// - Parameter completeImmediately: `true` to finish at once, `false` to never complete.
    @inlinable
    public init(completeImmediately: Bool = true) { self.completeImmediately = completeImmediately }

    /// Creates an empty publisher with explicit types.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately { subscriber.receive(completion: .finished) }
    }
}

/// A publisher that fails at once with the given error.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error it fails with.
    public let error: Failure

    /// Creates a publisher that fails with `error`.
    @inlinable
    public init(error: Failure) { self.error = error }

    /// Creates a publisher that fails with `error`, naming the output type.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) { self.error = failure }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Sendable where Failure: Sendable {}
extension Fail: Equatable where Failure: Equatable {}
