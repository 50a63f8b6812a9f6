extension AsyncSequence where Element: Sendable, Self: SendableMetatype, AsyncIterator: SendableMetatype {
    /// Creates a sequence that several tasks can iterate at once, each getting the same elements
    /// from one iteration of this base.
    ///
    /// One task iterates the base, from the first demand on, and only while some iterator waits
    /// for an element. Each iterator (a side) starts at the elements produced after it was made,
    /// with no replay. One buffer holds what the slowest side has not read; `bufferingPolicy`
    /// limits it: `.bounded(n)` (the default, `n` = 1) pauses the base until the slowest side
    /// catches up, `.unbounded` keeps everything, `.bufferingLatest(n)` and
    /// `.bufferingOldest(n)` drop elements for slow sides. A cancelled side leaves the iteration;
    /// when the sequence and all its iterators are gone, the base's task is cancelled.
    ///
    /// ```swift
    /// let shared = updates.share()
    /// Task { for await update in shared { render(update) } }
    /// Task { for await update in shared { log(update) } }
    /// ```
    ///
    /// - Parameter bufferingPolicy: How far a fast side may run ahead of the slowest one.
    /// - Returns: A sendable asynchronous sequence with the base's elements and failure.
    public func share(
        bufferingPolicy: AsyncBufferSequencePolicy = .bounded(1)
    ) -> some AsyncSequence<Element, Failure> & Sendable {
        // The iterator is made here and handed, once, to the one task that iterates it; the
        // compiler cannot see that this single hand-over is a transfer (the package does the same).
        nonisolated(unsafe) let iterator = makeAsyncIterator()
        return AsyncShareSequence<Self>(policy: bufferingPolicy) { iterator }
    }
}

/// The sequence `share()` returns (its type is opaque, as in the package).
struct AsyncShareSequence<Base: AsyncSequence>: AsyncSequence, Sendable
where Base.Element: Sendable, Base: SendableMetatype, Base.AsyncIterator: SendableMetatype {
    typealias Element = Base.Element
    typealias Failure = Base.Failure

    /// Tells the storage when the last copy of the sequence is gone.
    final class Extent: Sendable {
        let storage: ShareStorage<Base>
        init(storage: ShareStorage<Base>) { self.storage = storage }
        deinit { storage.sequenceDropped() }
    }

    let extent: Extent

    init(policy: AsyncBufferSequencePolicy, makeIterator: @escaping @Sendable () -> sending Base.AsyncIterator) {
        let machinePolicy: ShareCore.Machine.Policy
        switch policy.kind {
        // The package's share treats a bounded limit of 0 as no limit.
        case .bounded(let limit) where limit > 0: machinePolicy = .bounded(limit)
        case .bounded, .unbounded: machinePolicy = .unbounded
        case .bufferingNewest(let limit): machinePolicy = .bufferingNewest(limit)
        case .bufferingOldest(let limit): machinePolicy = .bufferingOldest(limit)
        }
        extent = Extent(storage: ShareStorage(policy: machinePolicy, makeIterator: makeIterator))
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(side: Side(storage: extent.storage))
    }

    /// One iterator's registration; it leaves the shared iteration when released.
    final class Side {
        let storage: ShareStorage<Base>
        let id: Int
        init(storage: ShareStorage<Base>) {
            self.storage = storage
            id = storage.registerSide()
        }
        deinit { storage.unregisterSide(id) }
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = Base.Failure
        let side: Side

        mutating func next() async throws(Base.Failure) -> Element? {
            try await side.storage.next(side: side.id)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            try await side.storage.next(side: side.id)
        }
    }
}
