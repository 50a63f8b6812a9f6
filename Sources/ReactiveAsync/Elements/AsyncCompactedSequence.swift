extension AsyncSequence {
    /// Creates an asynchronous sequence of the non-`nil` elements of a sequence of optionals.
    ///
    /// ```swift
    /// for await value in [1, nil, 2, nil, 3].async.compacted() {
    ///     print(value)  // 1, 2, 3
    /// }
    /// ```
    ///
    /// - Returns: An asynchronous sequence of the unwrapped non-`nil` elements.
    public func compacted<Unwrapped>() -> AsyncCompactedSequence<Self, Unwrapped> where Element == Unwrapped? {
        AsyncCompactedSequence(self)
    }
}

/// An asynchronous sequence of the non-`nil` elements of a base whose elements are optional.
///
/// Made by `compacted()`.
public struct AsyncCompactedSequence<Base: AsyncSequence, Element>: AsyncSequence where Base.Element == Element? {
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// The iterator of an `AsyncCompactedSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator

        /// Returns the next non-`nil` element, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Element? {
            while let element = try await base.next() {
                if let element { return element }
            }
            return nil
        }
    }
}

extension AsyncCompactedSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
