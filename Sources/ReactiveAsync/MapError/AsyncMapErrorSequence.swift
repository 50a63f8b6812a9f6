extension AsyncSequence {
    /// Converts the base's failure into another error.
    ///
    /// Elements pass through unchanged; when the base throws, `transform` turns the failure into
    /// the error this sequence throws, typed as `ErrorType`.
    ///
    /// ```swift
    /// enum LoadError: Error { case network(any Error) }
    /// for try await page in pages.mapError({ LoadError.network($0) }) { … }  // throws LoadError
    /// ```
    ///
    /// - Parameter transform: Returns the error to throw for the base's failure.
    /// - Returns: An asynchronous sequence that throws `ErrorType`.
    public func mapError<ErrorType: Error>(
        _ transform: @Sendable @escaping (Self.Failure) -> ErrorType
    ) -> AsyncMapErrorSequence<Self, ErrorType> {
        AsyncMapErrorSequence(base: self, transform: transform)
    }
}

/// An asynchronous sequence that converts its base's failure into another error; made by
/// `mapError(_:)`.
public struct AsyncMapErrorSequence<Base: AsyncSequence, ErrorType: Error>: AsyncSequence {
    /// The iterator type.
    public typealias AsyncIterator = Iterator
    /// The base's element type.
    public typealias Element = Base.Element

    private let base: Base
    private let transform: @Sendable (Base.Failure) -> ErrorType

    init(base: Base, transform: @Sendable @escaping (Base.Failure) -> ErrorType) {
        self.base = base
        self.transform = transform
    }

    /// Creates an iterator over the base's elements.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), transform: transform)
    }

    /// The iterator of an ``AsyncMapErrorSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        /// The base's element type.
        public typealias Element = Base.Element

        private var base: Base.AsyncIterator
        private let transform: @Sendable (Base.Failure) -> ErrorType

        init(base: Base.AsyncIterator, transform: @Sendable @escaping (Base.Failure) -> ErrorType) {
            self.base = base
            self.transform = transform
        }

        /// The base's next element.
        ///
        /// - Returns: The next element, or nil at the end.
        /// - Throws: The transformed failure of the base.
        public mutating func next() async throws(ErrorType) -> Element? {
            try await next(isolation: nil)
        }

        /// The base's next element, with the caller's isolation.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next element, or nil at the end.
        /// - Throws: The transformed failure of the base.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ErrorType) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw transform(error)
            }
        }
    }
}

extension AsyncMapErrorSequence: Sendable where Base: Sendable, Base.Element: Sendable {}
