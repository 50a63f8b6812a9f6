extension AsyncSequence {
    /// Creates an asynchronous sequence of runs of consecutive elements with equal projections,
    /// each collected into a `Collected` and paired with its projection.
    ///
    /// ```swift
    /// let byInitial = names.chunked(into: ContiguousArray.self, on: \.first)
    /// ```
    ///
    /// - Parameters:
    ///   - into: The collection type each run is collected into.
    ///   - projection: The value that, equal for consecutive elements, keeps them in one run.
    /// - Returns: An asynchronous sequence of `(projection, run)` pairs.
    public func chunked<Subject: Equatable, Collected: RangeReplaceableCollection>(
        into: Collected.Type,
        on projection: @escaping @Sendable (Element) -> Subject
    ) -> AsyncChunkedOnProjectionSequence<Self, Subject, Collected> where Collected.Element == Element {
        AsyncChunkedOnProjectionSequence(self, projection: projection)
    }

    /// Creates an asynchronous sequence of arrays of consecutive elements with equal projections,
    /// each paired with its projection.
    ///
    /// ```swift
    /// for await (initial, names) in ["Ada", "Alan", "Bea"].async.chunked(on: \.first) {
    ///     print(initial, names)  // "A" ["Ada", "Alan"], "B" ["Bea"]
    /// }
    /// ```
    ///
    /// - Parameter projection: The value that, equal for consecutive elements, keeps them in one run.
    /// - Returns: An asynchronous sequence of `(projection, run)` pairs.
    public func chunked<Subject: Equatable>(
        on projection: @escaping @Sendable (Element) -> Subject
    ) -> AsyncChunkedOnProjectionSequence<Self, Subject, [Element]> {
        chunked(into: [Element].self, on: projection)
    }
}

/// An asynchronous sequence of runs of consecutive elements whose projections are equal.
///
/// Made by `chunked(on:)` and `chunked(into:on:)`.
public struct AsyncChunkedOnProjectionSequence<Base: AsyncSequence, Subject: Equatable, Collected: RangeReplaceableCollection>: AsyncSequence
where Collected.Element == Base.Element {
    /// The type of element the sequence produces: a run with its projection.
    public typealias Element = (Subject, Collected)
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let projection: @Sendable (Base.Element) -> Subject

    init(_ base: Base, projection: @escaping @Sendable (Base.Element) -> Subject) {
        self.base = base
        self.projection = projection
    }

    /// Creates an iterator of runs.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), projection: projection)
    }

    /// The iterator of an `AsyncChunkedOnProjectionSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let projection: @Sendable (Base.Element) -> Subject
        /// The first element of the next run and its projection, read while closing the previous run.
        var pending: (Subject, Base.Element)?
        var finished = false

        init(base: Base.AsyncIterator, projection: @escaping @Sendable (Base.Element) -> Subject) {
            self.base = base
            self.projection = projection
        }

        /// Returns the next run with its projection, or `nil` once the base has finished (or after an error).
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> (Subject, Collected)? {
            guard !finished else { return nil }
            do {
                let start: (Subject, Base.Element)
                if let pending {
                    start = pending
                } else if let element = try await base.next() {
                    start = (projection(element), element)
                } else {
                    finished = true
                    return nil
                }
                pending = nil
                var run = Collected()
                run.append(start.1)
                while let element = try await base.next() {
                    let subject = projection(element)
                    guard subject == start.0 else {
                        pending = (subject, element)
                        return (start.0, run)
                    }
                    run.append(element)
                }
                finished = true
                // A base that ends because the consumer was cancelled leaves no partial run behind.
                return Task.isCancelled ? nil : (start.0, run)
            } catch {
                finished = true
                throw error
            }
        }
    }
}

extension AsyncChunkedOnProjectionSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
