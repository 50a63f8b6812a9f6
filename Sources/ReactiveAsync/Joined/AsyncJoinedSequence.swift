extension AsyncSequence where Element: AsyncSequence {
    /// Creates an asynchronous sequence of the elements of each inner sequence, one inner sequence
    /// after the other.
    ///
    /// Each inner sequence is iterated to its end before the next is taken from the base. An error
    /// from the base or an inner sequence ends the sequence; a consumer cancelled while an inner
    /// sequence ends does not start the next one.
    ///
    /// ```swift
    /// for await value in [[1, 2].async, [3].async].async.joined() {
    ///     print(value)  // 1, 2, 3
    /// }
    /// ```
    ///
    /// - Returns: The concatenation of the inner sequences.
    public func joined() -> AsyncJoinedSequence<Self> {
        AsyncJoinedSequence(self)
    }
}

/// An asynchronous sequence that concatenates the asynchronous sequences its base produces.
///
/// Made by `joined()`.
public struct AsyncJoinedSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: AsyncSequence {
    /// The type of element the sequence produces: the inner sequences' element.
    public typealias Element = Base.Element.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(outer: base.makeAsyncIterator())
    }

    /// The iterator of an `AsyncJoinedSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var outer: Base.AsyncIterator?
        var inner: Base.Element.AsyncIterator?

        init(outer: Base.AsyncIterator) {
            self.outer = outer
        }

        /// Returns the next element of the current inner sequence, taking the next inner sequence
        /// when it ends; `nil` once the base has ended, after an error, or after a cancellation.
        ///
        /// - Throws: An error thrown by the base or an inner sequence.
        public mutating func next() async rethrows -> Element? {
            while true {
                if var current = inner {
                    // Cleared while awaiting, so an error leaves the iterator finished.
                    inner = nil
                    let saved = outer
                    outer = nil
                    if let element = try await current.next() {
                        inner = current
                        outer = saved
                        return element
                    }
                    // A cancelled consumer ends here instead of starting the next inner sequence.
                    guard !Task.isCancelled else { return nil }
                    outer = saved
                }
                guard var base = outer else { return nil }
                outer = nil
                guard let sequence = try await base.next() else { return nil }
                outer = base
                inner = sequence.makeAsyncIterator()
            }
        }
    }
}

extension AsyncJoinedSequence: Sendable where Base: Sendable {}
