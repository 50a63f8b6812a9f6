extension AsyncSequence {
    /// Creates an asynchronous sequence of the running combination of this sequence's elements,
    /// starting with the first element itself.
    ///
    /// ```swift
    /// for await total in [1, 2, 3, 4].async.reductions(+) {
    ///     print(total)  // 1, 3, 6, 10
    /// }
    /// ```
    ///
    /// - Parameter transform: Combines the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions(_ transform: @Sendable @escaping (Element, Element) async -> Element) -> AsyncInclusiveReductionsSequence<Self> {
        AsyncInclusiveReductionsSequence(self, transform: transform)
    }

    /// Creates an asynchronous sequence of the running combination of this sequence's elements,
    /// starting with the first element itself, with a throwing `transform`.
    ///
    /// An error thrown by `transform` ends the sequence with that error.
    ///
    /// - Parameter transform: Combines the running value with the next element.
    /// - Returns: An asynchronous sequence of running values.
    public func reductions(
        _ transform: @Sendable @escaping (Element, Element) async throws -> Element
    ) -> AsyncThrowingInclusiveReductionsSequence<Self> {
        AsyncThrowingInclusiveReductionsSequence(self, transform: transform)
    }
}

/// An asynchronous sequence of the running combination of a base's elements, the first element
/// included as it is.
///
/// Made by `reductions(_:)`.
public struct AsyncInclusiveReductionsSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let transform: @Sendable (Base.Element, Base.Element) async -> Base.Element

    init(_ base: Base, transform: @escaping @Sendable (Base.Element, Base.Element) async -> Base.Element) {
        self.base = base
        self.transform = transform
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), transform: transform)
    }

    /// The iterator of an `AsyncInclusiveReductionsSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let transform: @Sendable (Base.Element, Base.Element) async -> Base.Element
        var accumulated: Base.Element?

        init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element, Base.Element) async -> Base.Element) {
            self.base = base
            self.transform = transform
        }

        /// Returns the next running value, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base.
        public mutating func next() async rethrows -> Base.Element? {
            guard let element = try await base.next() else { return nil }
            if let accumulated {
                self.accumulated = await transform(accumulated, element)
            } else {
                accumulated = element
            }
            return accumulated
        }
    }
}

/// An asynchronous sequence of the running combination of a base's elements by a throwing
/// transform, the first element included as it is.
///
/// Made by `reductions(_:)` with a throwing closure.
public struct AsyncThrowingInclusiveReductionsSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    let base: Base
    let transform: @Sendable (Base.Element, Base.Element) async throws -> Base.Element

    init(_ base: Base, transform: @escaping @Sendable (Base.Element, Base.Element) async throws -> Base.Element) {
        self.base = base
        self.transform = transform
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), transform: transform)
    }

    /// The iterator of an `AsyncThrowingInclusiveReductionsSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let transform: @Sendable (Base.Element, Base.Element) async throws -> Base.Element
        var accumulated: Base.Element?
        var finished = false

        init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element, Base.Element) async throws -> Base.Element) {
            self.base = base
            self.transform = transform
        }

        /// Returns the next running value, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base or `transform`; after it, the iterator returns `nil`.
        public mutating func next() async throws -> Base.Element? {
            guard !finished else { return nil }
            do {
                guard let element = try await base.next() else {
                    finished = true
                    return nil
                }
                if let accumulated {
                    self.accumulated = try await transform(accumulated, element)
                } else {
                    accumulated = element
                }
                return accumulated
            } catch {
                finished = true
                throw error
            }
        }
    }
}

extension AsyncInclusiveReductionsSequence: Sendable where Base: Sendable {}

extension AsyncThrowingInclusiveReductionsSequence: Sendable where Base: Sendable {}
