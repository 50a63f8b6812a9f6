extension AsyncSequence where Element: AsyncSequence {
    /// Creates an asynchronous sequence of the elements of each inner sequence, with the elements
    /// of `separator` between consecutive inner sequences.
    ///
    /// `separator` is iterated once, the first time it is needed; its elements are kept and
    /// repeated between later inner sequences. A separator goes out only when another inner
    /// sequence follows.
    ///
    /// ```swift
    /// let words = ["ab".async, "cd".async].async
    /// for await character in words.joined(separator: ", ".async) {
    ///     print(character)  // a, b, ",", " ", c, d
    /// }
    /// ```
    ///
    /// - Parameter separator: The elements to insert between inner sequences.
    /// - Returns: The concatenation of the inner sequences with separators between them.
    public func joined<Separator: AsyncSequence>(separator: Separator) -> AsyncJoinedBySeparatorSequence<Self, Separator> {
        AsyncJoinedBySeparatorSequence(self, separator: separator)
    }
}

/// An asynchronous sequence that concatenates the asynchronous sequences its base produces,
/// with the elements of a separator sequence between them.
///
/// Made by `joined(separator:)`.
public struct AsyncJoinedBySeparatorSequence<Base: AsyncSequence, Separator: AsyncSequence>: AsyncSequence
where Base.Element: AsyncSequence, Separator.Element == Base.Element.Element {
    /// The type of element the sequence produces: the inner sequences' element.
    public typealias Element = Base.Element.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let separator: Separator

    init(_ base: Base, separator: Separator) {
        self.base = base
        self.separator = separator
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(outer: base.makeAsyncIterator(), separator: separator)
    }

    /// The iterator of an `AsyncJoinedBySeparatorSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        enum Phase {
            /// Iterating an inner sequence.
            case inner(Base.Element.AsyncIterator)
            /// Reading the separator for the first time, before `next`; what was read so far.
            case readingSeparator(Separator.AsyncIterator, read: [Element], next: Base.Element)
            /// Replaying the kept separator from `index`, before `next`.
            case replayingSeparator(index: Int, next: Base.Element)
            /// Between inner sequences, or before the first.
            case outer
        }

        var outer: Base.AsyncIterator
        let separator: Separator
        var kept: [Element]?
        var phase: Phase? = .outer

        init(outer: Base.AsyncIterator, separator: Separator) {
            self.outer = outer
            self.separator = separator
        }

        /// Returns the next element of an inner sequence or of the separator; `nil` once the base
        /// has ended, after an error, or after a cancellation.
        ///
        /// - Throws: An error thrown by the base, an inner sequence or the separator.
        public mutating func next() async rethrows -> Element? {
            // `phase` is `nil` while awaiting and once finished, so an error leaves it finished.
            while let current = phase {
                phase = nil
                switch current {
                case .inner(var iterator):
                    if let element = try await iterator.next() {
                        phase = .inner(iterator)
                        return element
                    }
                    // A cancelled consumer ends here instead of starting the next inner sequence.
                    guard !Task.isCancelled, let next = try await outer.next() else { return nil }
                    if kept != nil {
                        phase = .replayingSeparator(index: 0, next: next)
                    } else {
                        phase = .readingSeparator(separator.makeAsyncIterator(), read: [], next: next)
                    }
                case .readingSeparator(var iterator, var read, let next):
                    if let element = try await iterator.next() {
                        read.append(element)
                        phase = .readingSeparator(iterator, read: read, next: next)
                        return element
                    }
                    kept = read
                    phase = .inner(next.makeAsyncIterator())
                case .replayingSeparator(let index, let next):
                    let separatorElements = kept ?? []
                    if index < separatorElements.count {
                        phase = .replayingSeparator(index: index + 1, next: next)
                        return separatorElements[index]
                    }
                    phase = .inner(next.makeAsyncIterator())
                case .outer:
                    guard let first = try await outer.next() else { return nil }
                    phase = .inner(first.makeAsyncIterator())
                }
            }
            return nil
        }
    }
}

extension AsyncJoinedBySeparatorSequence: Sendable where Base: Sendable, Separator: Sendable {}
