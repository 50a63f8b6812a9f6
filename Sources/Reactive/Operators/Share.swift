extension Publisher {
    /// Shares one subscription to this publisher among all subscribers.
    ///
    /// The first subscriber connects; later ones join the values already flowing (they do not
    /// see earlier ones); when every subscriber has left, the upstream is cancelled. Like Combine,
    /// it is a class (`multicast { PassthroughSubject() }.autoconnect()`), so copies share one
    /// subscription, and a subscriber that arrives after the upstream completed receives the
    /// completion only.
    ///
    /// ```swift
    /// let shared = expensiveRequest().share()
    /// let a = shared.sink { print("a", $0) }
    /// let b = shared.sink { print("b", $0) }   // one request, two subscribers
    /// ```
    /// - Returns: A shared publisher.
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// The publisher `share()` returns.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher shared.
        public final let upstream: Upstream
        @usableFromInline let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a shared publisher of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Multicast(upstream: upstream) { PassthroughSubject() }.autoconnect()
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Two shares are equal when they are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

// @unchecked: the share's only state is its multicast's lazily made subject (under a lock) and
// its ref count (under a lock); the subject itself is thread-safe.
extension Publishers.Share: @unchecked Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
// @unchecked: the ref count is kept under its lock; `upstream` is immutable.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}
