extension AsyncSequence {
    /// Creates an asynchronous sequence of runs of consecutive elements that belong together,
    /// each collected into a `Collected`.
    ///
    /// `belongInSameGroup` is called with the last element of the current run and the next element;
    /// `false` closes the run. The last run goes out when the base finishes.
    ///
    /// ```swift
    /// let runs = numbers.chunked(into: ContiguousArray.self) { $0 <= $1 }
    /// ```
    ///
    /// - Parameters:
    ///   - into: The collection type each run is collected into.
    ///   - belongInSameGroup: Whether the second element continues the run the first ends.
    /// - Returns: An asynchronous sequence of runs.
    public func chunked<Collected: RangeReplaceableCollection>(
        into: Collected.Type,
        by belongInSameGroup: @escaping @Sendable (Element, Element) -> Bool
    ) -> AsyncChunkedByGroupSequence<Self, Collected> where Collected.Element == Element {
        AsyncChunkedByGroupSequence(self, grouping: belongInSameGroup)
    }

    /// Creates an asynchronous sequence of arrays of consecutive elements that belong together.
    ///
    /// ```swift
    /// for await run in [10, 20, 30, 10, 40, 40, 10, 20].async.chunked(by: { $0 <= $1 }) {
    ///     print(run)  // [10, 20, 30], [10, 40, 40], [10, 20]
    /// }
    /// ```
    ///
    /// - Parameter belongInSameGroup: Whether the second element continues the run the first ends.
    /// - Returns: An asynchronous sequence of arrays.
    public func chunked(by belongInSameGroup: @escaping @Sendable (Element, Element) -> Bool) -> AsyncChunkedByGroupSequence<Self, [Element]> {
        chunked(into: [Element].self, by: belongInSameGroup)
    }
}

/// An asynchronous sequence of runs of consecutive elements that a predicate groups together.
///
/// Made by `chunked(by:)` and `chunked(into:by:)`.
public struct AsyncChunkedByGroupSequence<Base: AsyncSequence, Collected: RangeReplaceableCollection>: AsyncSequence
where Collected.Element == Base.Element {
    /// The type of element the sequence produces: a run.
    public typealias Element = Collected
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let grouping: @Sendable (Base.Element, Base.Element) -> Bool

    init(_ base: Base, grouping: @escaping @Sendable (Base.Element, Base.Element) -> Bool) {
        self.base = base
        self.grouping = grouping
    }

    /// Creates an iterator of runs.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), grouping: grouping)
    }

    /// The iterator of an `AsyncChunkedByGroupSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let grouping: @Sendable (Base.Element, Base.Element) -> Bool
        /// The first element of the next run, read while closing the previous one.
        var pending: Base.Element?
        var finished = false

        init(base: Base.AsyncIterator, grouping: @escaping @Sendable (Base.Element, Base.Element) -> Bool) {
            self.base = base
            self.grouping = grouping
        }

        /// Returns the next run, or `nil` once the base has finished (or after an error).
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Collected? {
            guard !finished else { return nil }
            do {
                var first = pending
                pending = nil
                if first == nil { first = try await base.next() }
                guard var last = first else {
                    finished = true
                    return nil
                }
                var run = Collected()
                run.append(last)
                while let element = try await base.next() {
                    guard grouping(last, element) else {
                        pending = element
                        return run
                    }
                    run.append(element)
                    last = element
                }
                finished = true
                // A base that ends because the consumer was cancelled leaves no partial run behind.
                return Task.isCancelled ? nil : run
            } catch {
                finished = true
                throw error
            }
        }
    }
}

extension AsyncChunkedByGroupSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
