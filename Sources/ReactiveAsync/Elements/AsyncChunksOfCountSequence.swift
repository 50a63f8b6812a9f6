extension AsyncSequence {
    /// Creates an asynchronous sequence of chunks of `count` consecutive elements, each collected
    /// into a `Collected`.
    ///
    /// The last chunk holds what is left when the base finishes and may be shorter; an error thrown
    /// by the base drops the partial chunk and is rethrown.
    ///
    /// ```swift
    /// for await chunk in numbers.chunks(ofCount: 2, into: ContiguousArray.self) {
    ///     print(chunk)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - count: The number of elements per chunk; must be greater than zero.
    ///   - into: The collection type each chunk is collected into.
    /// - Returns: An asynchronous sequence of chunks.
    public func chunks<Collected: RangeReplaceableCollection>(ofCount count: Int, into: Collected.Type) -> AsyncChunksOfCountSequence<Self, Collected>
    where Collected.Element == Element {
        AsyncChunksOfCountSequence(self, count: count)
    }

    /// Creates an asynchronous sequence of arrays of `count` consecutive elements.
    ///
    /// ```swift
    /// for await chunk in [1, 2, 3, 4, 5].async.chunks(ofCount: 2) {
    ///     print(chunk)  // [1, 2], [3, 4], [5]
    /// }
    /// ```
    ///
    /// - Parameter count: The number of elements per chunk; must be greater than zero.
    /// - Returns: An asynchronous sequence of arrays; the last may be shorter.
    public func chunks(ofCount count: Int) -> AsyncChunksOfCountSequence<Self, [Element]> {
        chunks(ofCount: count, into: [Element].self)
    }
}

/// An asynchronous sequence of chunks of a fixed number of consecutive elements of a base.
///
/// Made by `chunks(ofCount:)` and `chunks(ofCount:into:)`.
public struct AsyncChunksOfCountSequence<Base: AsyncSequence, Collected: RangeReplaceableCollection>: AsyncSequence
where Collected.Element == Base.Element {
    /// The type of element the sequence produces: a chunk.
    public typealias Element = Collected
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let count: Int

    init(_ base: Base, count: Int) {
        precondition(count > 0, "chunks(ofCount:) needs a count greater than zero")
        self.base = base
        self.count = count
    }

    /// Creates an iterator of chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), count: count)
    }

    /// The iterator of an `AsyncChunksOfCountSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let count: Int
        var finished = false

        /// Returns the next chunk, or `nil` once the base has finished (or after an error).
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Collected? {
            guard !finished else { return nil }
            var chunk = Collected()
            do {
                while let element = try await base.next() {
                    chunk.append(element)
                    if chunk.count == count { return chunk }
                }
            } catch {
                finished = true
                throw error
            }
            finished = true
            // A base that ends because the consumer was cancelled leaves no partial chunk behind.
            return chunk.isEmpty || Task.isCancelled ? nil : chunk
        }
    }
}

extension AsyncChunksOfCountSequence: Sendable where Base: Sendable {}
