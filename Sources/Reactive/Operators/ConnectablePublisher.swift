/// A publisher that does not start its upstream until `connect()` is called.
///
/// Subscribe everyone first, then connect, so that no subscriber misses the first values.
///
/// ```swift
/// let shared = [1, 2, 3].publisher.makeConnectable()
/// let a = shared.sink { print("a", $0) }
/// let b = shared.sink { print("b", $0) }
/// let connection = shared.connect()   // a 1, b 1, a 2, …
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the upstream. Cancelling the result stops it.
    /// - Returns: The connection, to cancel when the upstream should stop.
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Connects when the first subscriber arrives, and disconnects when the last one leaves.
    ///
    /// ```swift
    /// let ticks = source.multicast { PassthroughSubject() }.autoconnect()
    /// ```
    /// - Returns: A publisher that manages the connection by counting its subscribers.
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
