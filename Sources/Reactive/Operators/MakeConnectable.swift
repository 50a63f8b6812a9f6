extension Publisher where Failure == Never {
    /// Makes this publisher connectable: it starts only on `connect()`, shared by every subscriber.
    ///
    /// ```swift
    /// let c = source.makeConnectable()
    /// let a = c.sink { print($0) }
    /// let connection = c.connect()
    /// ```
    /// - Returns: A connectable publisher sharing this one through a `PassthroughSubject`.
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// The connectable publisher `makeConnectable()` returns.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        @usableFromInline let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher of `upstream`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}
