extension AsyncSequence where Element: Equatable {
    /// Creates an asynchronous sequence that omits elements equal to the element before them.
    ///
    /// ```swift
    /// for await value in [1, 1, 2, 2, 2, 3, 1].async.removeDuplicates() {
    ///     print(value)  // 1, 2, 3, 1
    /// }
    /// ```
    ///
    /// - Returns: An asynchronous sequence without consecutive repeats.
    public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self> {
        AsyncRemoveDuplicatesSequence(self, predicate: areEqual)
    }
}

/// `==` as a predicate value.
@Sendable private func areEqual<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
}

extension AsyncSequence {
    /// Creates an asynchronous sequence that omits elements that `predicate` calls duplicates of
    /// the last element it emitted.
    ///
    /// ```swift
    /// let changes = readings.removeDuplicates { abs($0 - $1) < 0.5 }
    /// ```
    ///
    /// - Parameter predicate: Whether the second element (the new one) repeats the first (the last emitted).
    /// - Returns: An asynchronous sequence without the elements `predicate` calls repeats.
    public func removeDuplicates(by predicate: @escaping @Sendable (Element, Element) async -> Bool) -> AsyncRemoveDuplicatesSequence<Self> {
        AsyncRemoveDuplicatesSequence(self, predicate: predicate)
    }

    /// Creates an asynchronous sequence that omits elements that a throwing `predicate` calls
    /// duplicates of the last element it emitted.
    ///
    /// An error thrown by `predicate` ends the sequence with that error.
    ///
    /// - Parameter predicate: Whether the second element (the new one) repeats the first (the last emitted).
    /// - Returns: An asynchronous sequence without the elements `predicate` calls repeats.
    public func removeDuplicates(
        by predicate: @escaping @Sendable (Element, Element) async throws -> Bool
    ) -> AsyncThrowingRemoveDuplicatesSequence<Self> {
        AsyncThrowingRemoveDuplicatesSequence(self, predicate: predicate)
    }
}

/// An asynchronous sequence that omits elements that repeat the element emitted before them.
///
/// Made by `removeDuplicates()` and `removeDuplicates(by:)`.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator
    /// The predicate deciding whether an element repeats the last one emitted.
    public typealias Predicate = @Sendable (Element, Element) async -> Bool

    let base: Base
    let predicate: Predicate

    init(_ base: Base, predicate: @escaping Predicate) {
        self.base = base
        self.predicate = predicate
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), predicate: predicate)
    }

    /// The iterator of an `AsyncRemoveDuplicatesSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let predicate: Predicate
        var last: Element?

        init(base: Base.AsyncIterator, predicate: @escaping Predicate) {
            self.base = base
            self.predicate = predicate
        }

        /// Returns the next element that does not repeat the last one emitted.
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Element? {
            while let element = try await base.next() {
                if let last, await predicate(last, element) { continue }
                last = element
                return element
            }
            return nil
        }
    }
}

/// An asynchronous sequence that omits elements a throwing predicate calls repeats of the element
/// emitted before them.
///
/// Made by `removeDuplicates(by:)` with a throwing predicate.
public struct AsyncThrowingRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator
    /// The predicate deciding whether an element repeats the last one emitted.
    public typealias Predicate = @Sendable (Element, Element) async throws -> Bool

    let base: Base
    let predicate: Predicate

    init(_ base: Base, predicate: @escaping Predicate) {
        self.base = base
        self.predicate = predicate
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), predicate: predicate)
    }

    /// The iterator of an `AsyncThrowingRemoveDuplicatesSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let predicate: Predicate
        var last: Element?
        var finished = false

        init(base: Base.AsyncIterator, predicate: @escaping Predicate) {
            self.base = base
            self.predicate = predicate
        }

        /// Returns the next element that does not repeat the last one emitted.
        ///
        /// - Throws: An error thrown by the base or the predicate; after it, the iterator returns `nil`.
        public mutating func next() async throws -> Element? {
            guard !finished else { return nil }
            do {
                while let element = try await base.next() {
                    if let last, try await predicate(last, element) { continue }
                    last = element
                    return element
                }
            } catch {
                finished = true
                throw error
            }
            finished = true
            return nil
        }
    }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

extension AsyncThrowingRemoveDuplicatesSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
