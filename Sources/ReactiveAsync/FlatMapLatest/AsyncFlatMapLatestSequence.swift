extension AsyncSequence where Self: Sendable {
    /// Transforms each element into an asynchronous sequence and emits the elements of the latest
    /// one only: a new base element cancels the iteration of the previous inner sequence.
    ///
    /// The sequence ends when the base and the last inner sequence have finished; a failure of
    /// the base or of the current inner sequence is thrown at once and cancels everything.
    /// Cancelling the consuming task cancels the base's and the inner sequence's iteration.
    ///
    /// ```swift
    /// let results = queries.flatMapLatest { query in search(query) }
    /// for try await result in results { show(result) }  // only the latest query's results
    /// ```
    ///
    /// - Parameter transform: Makes the inner sequence for a base element.
    /// - Returns: An asynchronous sequence of the latest inner sequence's elements.
    public func flatMapLatest<T: AsyncSequence & Sendable>(
        _ transform: @escaping @Sendable (Element) -> T
    ) -> AsyncFlatMapLatestSequence<Self, T> where Element: Sendable, T.Element: Sendable {
        AsyncFlatMapLatestSequence(base: self, transform: transform)
    }
}

/// An asynchronous sequence of the elements of the inner sequence made from its base's latest
/// element; made by `flatMapLatest(_:)`.
public struct AsyncFlatMapLatestSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
    /// The inner sequences' element type.
    public typealias Element = Inner.Element
    /// The iterator type.
    public typealias AsyncIterator = Iterator

    let base: Base
    let transform: @Sendable (Base.Element) -> Inner

    /// Creates an iterator; its tasks start at its first `next()`.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lifetime: Lifetime(storage: FlatMapLatestStorage(base: base, transform: transform)))
    }

    /// Cancels the iteration when the last copy of the iterator is gone.
    final class Lifetime: Sendable {
        let storage: FlatMapLatestStorage<Base, Inner>
        init(storage: FlatMapLatestStorage<Base, Inner>) { self.storage = storage }
        deinit { storage.cancel() }
    }

    /// The iterator of an ``AsyncFlatMapLatestSequence``.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let lifetime: Lifetime

        /// The next element of the latest inner sequence.
        ///
        /// - Returns: The next element, or nil at the end or once the calling task is cancelled.
        /// - Throws: The first failure of the base or of the current inner sequence.
        public func next() async throws -> Element? {
            try await lifetime.storage.next()
        }
    }
}
