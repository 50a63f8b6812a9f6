extension AsyncSequence {
    /// Creates an asynchronous sequence of each element paired with the element after it.
    ///
    /// A base with fewer than two elements gives an empty sequence.
    ///
    /// ```swift
    /// for await (previous, current) in [1, 2, 3, 4].async.adjacentPairs() {
    ///     print(previous, current)  // (1, 2), (2, 3), (3, 4)
    /// }
    /// ```
    ///
    /// - Returns: An asynchronous sequence of overlapping pairs of consecutive elements.
    public func adjacentPairs() -> AsyncAdjacentPairsSequence<Self> {
        AsyncAdjacentPairsSequence(self)
    }
}

/// An asynchronous sequence of overlapping pairs of consecutive elements of a base.
///
/// Made by `adjacentPairs()`.
public struct AsyncAdjacentPairsSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: two consecutive elements.
    public typealias Element = (Base.Element, Base.Element)
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    /// Creates an iterator of pairs.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// The iterator of an `AsyncAdjacentPairsSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var previous: Base.Element?

        init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// Returns the next pair, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> (Base.Element, Base.Element)? {
            if previous == nil {
                previous = try await base.next()
            }
            guard let first = previous, let second = try await base.next() else {
                previous = nil
                return nil
            }
            previous = second
            return (first, second)
        }
    }
}

extension AsyncAdjacentPairsSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
