/// A publisher that builds its real publisher anew for each subscriber, when it subscribes.
///
/// Use it to make eager publishers such as `Future` lazy: the work starts on subscribe, once per
/// subscriber (C32).
///
/// ```swift
/// let lazy = Deferred { Future<Int, Never> { $0(.success(fetchCount())) } }
/// // fetchCount() has not run yet; it runs once per subscription:
/// let c = lazy.sink { print($0) }
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure

    /// Makes the publisher a new subscriber is attached to.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a publisher that calls `createPublisher` at each subscription.
    /// - Parameter createPublisher: Builds the publisher to subscribe to.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
