extension Sequence {
    /// An asynchronous sequence of this sequence's elements.
    ///
    /// Iterating it never suspends; it ends early when the consuming task is cancelled.
    ///
    /// ```swift
    /// for await value in [1, 2, 3].async {
    ///     print(value)
    /// }
    /// ```
    public var async: AsyncSyncSequence<Self> {
        AsyncSyncSequence(self)
    }
}

/// An asynchronous sequence made of the elements of a synchronous sequence.
///
/// Made by `Sequence.async`. Its iterator returns `nil` once the base is exhausted or the
/// consuming task is cancelled, and `nil` from then on.
public struct AsyncSyncSequence<Base: Sequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    /// Creates an iterator over the base's elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base.makeIterator())
    }

    /// The iterator of an `AsyncSyncSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var iterator: Base.Iterator?

        init(_ iterator: Base.Iterator) {
            self.iterator = iterator
        }

        /// Returns the base's next element, or `nil` when it is exhausted or the task is cancelled.
        public mutating func next() async -> Element? {
            guard !Task.isCancelled, let element = iterator?.next() else {
                iterator = nil
                return nil
            }
            return element
        }
    }
}

extension AsyncSyncSequence: Sendable where Base: Sendable {}
