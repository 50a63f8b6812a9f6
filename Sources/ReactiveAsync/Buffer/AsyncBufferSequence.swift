extension AsyncSequence where Self: Sendable {
    /// Creates an asynchronous sequence that buffers elements, so the base can run ahead of a
    /// slower consumer.
    ///
    /// A task iterates the base from the first call to `next()`; `policy` decides what is kept:
    /// `.bounded(n)` pauses the base when `n` elements wait, `.unbounded` keeps all,
    /// `.bufferingLatest(n)` drops the oldest and `.bufferingOldest(n)` the newest beyond `n`.
    /// A limit of zero buffers nothing: the base is iterated directly. A failure of the base is
    /// thrown after the elements buffered before it. Cancelling the consuming task or dropping
    /// the iterator cancels the base's task.
    ///
    /// ```swift
    /// for await line in lines.buffer(policy: .bounded(16)) { await slowlyProcess(line) }
    /// ```
    ///
    /// - Parameter policy: How many elements to keep and what to drop beyond them.
    /// - Returns: An asynchronous sequence of the base's elements, buffered.
    public func buffer(policy: AsyncBufferSequencePolicy) -> AsyncBufferSequence<Self> where Element: Sendable {
        AsyncBufferSequence(base: self, policy: policy)
    }
}

/// How an ``AsyncBufferSequence`` keeps elements its consumer has not taken yet.
public struct AsyncBufferSequencePolicy: Sendable {
    enum Kind: Equatable {
        case bounded(Int)
        case unbounded
        case bufferingNewest(Int)
        case bufferingOldest(Int)
    }

    let kind: Kind

    /// Buffers up to `limit` elements, then stops pulling from the base until the consumer takes
    /// one. A limit of zero buffers nothing.
    ///
    /// - Parameter limit: The most elements kept; zero or more.
    /// - Returns: The policy.
    public static func bounded(_ limit: Int) -> Self {
        precondition(limit >= 0, "The limit should be positive or equal to 0.")
        return Self(kind: .bounded(limit))
    }

    /// Buffers every element the base produces.
    public static var unbounded: Self { Self(kind: .unbounded) }

    /// Buffers up to `limit` elements; a new element beyond that drops the oldest one.
    /// A limit of zero buffers nothing.
    ///
    /// - Parameter limit: The most elements kept; zero or more.
    /// - Returns: The policy.
    public static func bufferingLatest(_ limit: Int) -> Self {
        precondition(limit >= 0, "The limit should be positive or equal to 0.")
        return Self(kind: .bufferingNewest(limit))
    }

    /// Buffers up to `limit` elements; a new element beyond that is dropped.
    /// A limit of zero buffers nothing.
    ///
    /// - Parameter limit: The most elements kept; zero or more.
    /// - Returns: The policy.
    public static func bufferingOldest(_ limit: Int) -> Self {
        precondition(limit >= 0, "The limit should be positive or equal to 0.")
        return Self(kind: .bufferingOldest(limit))
    }
}

/// An asynchronous sequence that buffers its base's elements according to a policy; made by
/// `buffer(policy:)`.
public struct AsyncBufferSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The iterator type.
    public typealias AsyncIterator = Iterator

    let base: Base
    let policy: AsyncBufferSequencePolicy

    /// Creates an iterator; each iterator iterates the base on a task of its own.
    ///
    /// - Returns: An iterator over the buffered elements.
    public func makeAsyncIterator() -> Iterator {
        let machinePolicy: BufferCore.Machine.Policy
        switch policy.kind {
        case .bounded(let limit) where limit > 0: machinePolicy = .bounded(limit)
        case .unbounded: machinePolicy = .unbounded
        case .bufferingNewest(let limit) where limit > 0: machinePolicy = .bufferingNewest(limit)
        case .bufferingOldest(let limit) where limit > 0: machinePolicy = .bufferingOldest(limit)
        default: return Iterator(mode: .transparent(base.makeAsyncIterator()))
        }
        let storage = BufferStorage(base: base, policy: machinePolicy)
        return Iterator(mode: .buffered(storage, Lifetime(storage: storage)))
    }

    /// Ends the iteration when the last copy of an iterator goes away.
    final class Lifetime {
        let storage: BufferStorage<Base>
        init(storage: BufferStorage<Base>) { self.storage = storage }
        deinit { storage.iteratorDropped() }
    }

    /// The iterator of an ``AsyncBufferSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        /// The base's failure type.
        public typealias Failure = Base.Failure

        enum Mode {
            case transparent(Base.AsyncIterator)
            case buffered(BufferStorage<Base>, Lifetime)
        }

        var mode: Mode
        /// Elements an `.unbounded` buffer handed over at once, returned before it is asked again.
        var stash = FIFOQueue<any Sendable>()

        /// The next element, buffered or awaited.
        ///
        /// - Returns: The next element, or nil at the end or once the calling task is cancelled.
        /// - Throws: The base's failure, after the elements buffered before it.
        public mutating func next() async throws(Base.Failure) -> Element? {
            try await next(isolation: nil)
        }

        /// The next element, buffered or awaited, with the caller's isolation.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next element, or nil at the end or once the calling task is cancelled.
        /// - Throws: The base's failure, after the elements buffered before it.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            switch mode {
            case .transparent(var iterator):
                // Written back also when the base throws, so its state after the failure is kept.
                defer { mode = .transparent(iterator) }
                return try await iterator.next(isolation: actor)
            case .buffered(let storage, _):
                if let element = stash.popFirst() { return unerased(element, as: Element.self) }
                let (element, rest) = try await storage.next()
                if !rest.isEmpty { stash = rest }
                return element
            }
        }
    }
}

@available(*, unavailable)
extension AsyncBufferSequence.Iterator: Sendable {}
