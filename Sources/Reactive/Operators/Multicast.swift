extension Publisher {
    /// Shares this publisher through a subject made by `createSubject` (once, on first use).
    ///
    /// Subscribers attach to the subject; `connect()` subscribes the subject to this publisher.
    /// Each subscriber's demand is its own: a subject drops a value for a subscriber without
    /// demand and never holds back the others (C12).
    ///
    /// ```swift
    /// let m = (1...3).publisher.multicast { PassthroughSubject<Int, Never>() }
    /// let a = m.sink { print("a", $0) }
    /// let b = m.sink { print("b", $0) }
    /// let connection = m.connect()
    /// ```
    /// - Parameter createSubject: Makes the subject on first use. It is user code, so it is not run
    ///   under a lock: if two threads use the multicast for the first time at once, it may run twice
    ///   and one result is kept. Keep it free of side effects.
    /// - Returns: A connectable publisher.
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher through `subject`.
    ///
    /// ```swift
    /// let m = source.multicast(subject: PassthroughSubject<Int, Never>())
    /// ```
    /// - Parameter subject: The subject subscribers attach to.
    /// - Returns: A connectable publisher.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

extension Publishers {
    /// The connectable publisher `multicast(_:)` and `multicast(subject:)` return.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher shared once connected.
        public let upstream: Upstream
        /// Makes the subject, on first use.
        public let createSubject: () -> SubjectType

        @usableFromInline let lock = Lock()
        @usableFromInline @exclusivity(unchecked) var subject: SubjectType?

        /// Creates a multicast of `upstream` through the subject `createSubject` makes.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, made on first use (outside the lock: `createSubject` is user code).
        @inlinable
        var lazySubject: SubjectType {
            if let existing = lock.guarded({ subject }) { return existing }
            let made = createSubject()
            return lock.guarded {
                if let subject { return subject }
                subject = made
                return made
            }
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lazySubject.receive(subscriber: subscriber)
        }

        /// Subscribes the subject to the upstream. Each call makes a new upstream subscription.
        public func connect() -> any Cancellable {
            upstream.subscribe(lazySubject)
        }
    }
}

// @unchecked: `subject` is read and written only under `lock`; subjects are thread-safe.
extension Publishers.Multicast: @unchecked Sendable where Upstream: Sendable, SubjectType: Sendable {}
