extension AsyncSequence {
    /// Creates an asynchronous sequence of the running combination of this sequence's elements,
    /// starting from `initial` (which itself is not emitted).
    ///
    /// ```swift
    /// for await total in [1, 2, 3, 4].async.reductions(10, +) {
    ///     print(total)  // 11, 13, 16, 20
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The running value before the first element.
    ///   - transform: Combines the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions<Result>(
        _ initial: Result,
        _ transform: @Sendable @escaping (Result, Element) async -> Result
    ) -> AsyncExclusiveReductionsSequence<Self, Result> {
        reductions(into: initial) { result, element in
            result = await transform(result, element)
        }
    }

    /// Creates an asynchronous sequence of the running combination of this sequence's elements,
    /// starting from `initial` and updating it in place.
    ///
    /// ```swift
    /// let histories = events.reductions(into: []) { $0.append($1) }
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The running value before the first element.
    ///   - transform: Updates the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions<Result>(
        into initial: Result,
        _ transform: @Sendable @escaping (inout Result, Element) async -> Void
    ) -> AsyncExclusiveReductionsSequence<Self, Result> {
        AsyncExclusiveReductionsSequence(self, initial: initial, transform: transform)
    }

    /// Creates an asynchronous sequence of the running combination of this sequence's elements by a
    /// throwing `transform`, starting from `initial` (which itself is not emitted).
    ///
    /// An error thrown by `transform` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - initial: The running value before the first element.
    ///   - transform: Combines the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions<Result>(
        _ initial: Result,
        _ transform: @Sendable @escaping (Result, Element) async throws -> Result
    ) -> AsyncThrowingExclusiveReductionsSequence<Self, Result> {
        reductions(into: initial) { result, element in
            result = try await transform(result, element)
        }
    }

    /// Creates an asynchronous sequence of the running combination of this sequence's elements by a
    /// throwing `transform`, starting from `initial` and updating it in place.
    ///
    /// An error thrown by `transform` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - initial: The running value before the first element.
    ///   - transform: Updates the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions<Result>(
        into initial: Result,
        _ transform: @Sendable @escaping (inout Result, Element) async throws -> Void
    ) -> AsyncThrowingExclusiveReductionsSequence<Self, Result> {
        AsyncThrowingExclusiveReductionsSequence(self, initial: initial, transform: transform)
    }
}

/// An asynchronous sequence of the running combination of a base's elements, starting from an
/// initial value that is not emitted.
///
/// Made by `reductions(_:_:)` and `reductions(into:_:)`.
public struct AsyncExclusiveReductionsSequence<Base: AsyncSequence, Element>: AsyncSequence {
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let initial: Element
    let transform: @Sendable (inout Element, Base.Element) async -> Void

    init(_ base: Base, initial: Element, transform: @escaping @Sendable (inout Element, Base.Element) async -> Void) {
        self.base = base
        self.initial = initial
        self.transform = transform
    }

    /// Creates an iterator; each iterator starts again from the initial value.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), current: initial, transform: transform)
    }

    /// The iterator of an `AsyncExclusiveReductionsSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var current: Element?
        let transform: @Sendable (inout Element, Base.Element) async -> Void

        init(base: Base.AsyncIterator, current: Element, transform: @escaping @Sendable (inout Element, Base.Element) async -> Void) {
            self.base = base
            self.current = current
            self.transform = transform
        }

        /// Returns the next running value, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Element? {
            guard var value = current else { return nil }
            // Cleared while awaiting, so an error leaves the iterator finished.
            current = nil
            guard let element = try await base.next() else { return nil }
            await transform(&value, element)
            current = value
            return value
        }
    }
}

/// An asynchronous sequence of the running combination of a base's elements by a throwing
/// transform, starting from an initial value that is not emitted.
///
/// Made by `reductions(_:_:)` and `reductions(into:_:)` with a throwing closure.
public struct AsyncThrowingExclusiveReductionsSequence<Base: AsyncSequence, Element>: AsyncSequence {
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let initial: Element
    let transform: @Sendable (inout Element, Base.Element) async throws -> Void

    init(_ base: Base, initial: Element, transform: @escaping @Sendable (inout Element, Base.Element) async throws -> Void) {
        self.base = base
        self.initial = initial
        self.transform = transform
    }

    /// Creates an iterator; each iterator starts again from the initial value.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), current: initial, transform: transform)
    }

    /// The iterator of an `AsyncThrowingExclusiveReductionsSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var current: Element?
        let transform: @Sendable (inout Element, Base.Element) async throws -> Void

        init(base: Base.AsyncIterator, current: Element, transform: @escaping @Sendable (inout Element, Base.Element) async throws -> Void) {
            self.base = base
            self.current = current
            self.transform = transform
        }

        /// Returns the next running value, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base or `transform`; after it, the iterator returns `nil`.
        public mutating func next() async throws -> Element? {
            guard var value = current else { return nil }
            // Cleared while awaiting, so an error leaves the iterator finished.
            current = nil
            guard let element = try await base.next() else { return nil }
            try await transform(&value, element)
            current = value
            return value
        }
    }
}

extension AsyncExclusiveReductionsSequence: Sendable where Base: Sendable, Element: Sendable {}

extension AsyncThrowingExclusiveReductionsSequence: Sendable where Base: Sendable, Element: Sendable {}
