extension AsyncSequence {
    /// Creates an asynchronous sequence of this sequence's elements with `separator` after every
    /// `every` of them (never at the end).
    ///
    /// ```swift
    /// for await value in ["A", "B", "C"].async.interspersed(with: "-") {
    ///     print(value)  // "A", "-", "B", "-", "C"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - every: How many elements go between separators; must be greater than zero.
    ///   - separator: The value to insert.
    /// - Returns: The interspersed asynchronous sequence.
    public func interspersed(every: Int = 1, with separator: Element) -> AsyncInterspersedSequence<Self> {
        AsyncInterspersedSequence(self, every: every, separator: .element(separator))
    }

    /// Creates an asynchronous sequence of this sequence's elements with a separator made by
    /// `separator` after every `every` of them (never at the end).
    ///
    /// - Parameters:
    ///   - every: How many elements go between separators; must be greater than zero.
    ///   - separator: Makes each separator, when it is about to go out.
    /// - Returns: The interspersed asynchronous sequence.
    public func interspersed(every: Int = 1, with separator: @Sendable @escaping () -> Element) -> AsyncInterspersedSequence<Self> {
        AsyncInterspersedSequence(self, every: every, separator: .syncClosure(separator))
    }

    /// Creates an asynchronous sequence of this sequence's elements with a separator made by an
    /// asynchronous `separator` after every `every` of them (never at the end).
    ///
    /// - Parameters:
    ///   - every: How many elements go between separators; must be greater than zero.
    ///   - separator: Makes each separator, when it is about to go out.
    /// - Returns: The interspersed asynchronous sequence.
    public func interspersed(every: Int = 1, with separator: @Sendable @escaping () async -> Element) -> AsyncInterspersedSequence<Self> {
        AsyncInterspersedSequence(self, every: every, separator: .asyncClosure(separator))
    }

    /// Creates an asynchronous sequence of this sequence's elements with a separator made by a
    /// throwing `separator` after every `every` of them (never at the end).
    ///
    /// An error thrown by `separator` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - every: How many elements go between separators; must be greater than zero.
    ///   - separator: Makes each separator, when it is about to go out.
    /// - Returns: The interspersed asynchronous sequence.
    public func interspersed(every: Int = 1, with separator: @Sendable @escaping () throws -> Element) -> AsyncThrowingInterspersedSequence<Self> {
        AsyncThrowingInterspersedSequence(self, every: every, separator: .syncClosure(separator))
    }

    /// Creates an asynchronous sequence of this sequence's elements with a separator made by an
    /// asynchronous throwing `separator` after every `every` of them (never at the end).
    ///
    /// An error thrown by `separator` ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - every: How many elements go between separators; must be greater than zero.
    ///   - separator: Makes each separator, when it is about to go out.
    /// - Returns: The interspersed asynchronous sequence.
    public func interspersed(
        every: Int = 1,
        with separator: @Sendable @escaping () async throws -> Element
    ) -> AsyncThrowingInterspersedSequence<Self> {
        AsyncThrowingInterspersedSequence(self, every: every, separator: .asyncClosure(separator))
    }
}

/// An asynchronous sequence of a base's elements with a separator between every `every` of them.
///
/// Made by `interspersed(every:with:)`. A separator goes out only when another element follows it.
public struct AsyncInterspersedSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    enum Separator {
        case element(Base.Element)
        case syncClosure(@Sendable () -> Base.Element)
        case asyncClosure(@Sendable () async -> Base.Element)
    }

    let base: Base
    let every: Int
    let separator: Separator

    init(_ base: Base, every: Int, separator: Separator) {
        precondition(every > 0, "interspersed(every:with:) needs every to be greater than zero")
        self.base = base
        self.every = every
        self.separator = separator
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), every: every, separator: separator)
    }

    /// The iterator of an `AsyncInterspersedSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let separator: Separator
        var cursor: IntersperseCursor<Base.Element>

        init(base: Base.AsyncIterator, every: Int, separator: Separator) {
            self.base = base
            self.separator = separator
            cursor = IntersperseCursor(every: every)
        }

        /// Returns the next element or separator, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base; after it, the iterator returns `nil`.
        public mutating func next() async rethrows -> Base.Element? {
            if let element = cursor.takePending() { return element }
            guard !cursor.finished else { return nil }
            do {
                switch cursor.pulled(try await base.next()) {
                case .element(let element): return element
                case .end: return nil
                case .separator: break
                }
                switch separator {
                case .element(let element): return element
                case .syncClosure(let closure): return closure()
                case .asyncClosure(let closure): return await closure()
                }
            } catch {
                cursor.failed()
                throw error
            }
        }
    }
}

extension AsyncInterspersedSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

extension AsyncInterspersedSequence.Separator: Sendable where Base: Sendable, Base.Element: Sendable {}

/// An asynchronous sequence of a base's elements with separators made by a throwing closure between every `every` of them.
///
/// Made by `interspersed(every:with:)`. A separator goes out only when another element follows it.
public struct AsyncThrowingInterspersedSequence<Base: AsyncSequence>: AsyncSequence {
    /// The type of element the sequence produces: the base's element.
    public typealias Element = Base.Element
    /// The iterator's type, under the name `AsyncSequence` uses.
    public typealias AsyncIterator = Iterator

    enum Separator {
        case syncClosure(@Sendable () throws -> Base.Element)
        case asyncClosure(@Sendable () async throws -> Base.Element)
    }

    let base: Base
    let every: Int
    let separator: Separator

    init(_ base: Base, every: Int, separator: Separator) {
        precondition(every > 0, "interspersed(every:with:) needs every to be greater than zero")
        self.base = base
        self.every = every
        self.separator = separator
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), every: every, separator: separator)
    }

    /// The iterator of an `AsyncThrowingInterspersedSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let separator: Separator
        var cursor: IntersperseCursor<Base.Element>

        init(base: Base.AsyncIterator, every: Int, separator: Separator) {
            self.base = base
            self.separator = separator
            cursor = IntersperseCursor(every: every)
        }

        /// Returns the next element or separator, or `nil` once the base has finished.
        ///
        /// - Throws: An error thrown by the base or the separator closure; after it, the iterator returns `nil`.
        public mutating func next() async throws -> Base.Element? {
            if let element = cursor.takePending() { return element }
            guard !cursor.finished else { return nil }
            do {
                switch cursor.pulled(try await base.next()) {
                case .element(let element): return element
                case .end: return nil
                case .separator: break
                }
                switch separator {
                case .syncClosure(let closure): return try closure()
                case .asyncClosure(let closure): return try await closure()
                }
            } catch {
                cursor.failed()
                throw error
            }
        }
    }
}

extension AsyncThrowingInterspersedSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

extension AsyncThrowingInterspersedSequence.Separator: Sendable where Base: Sendable, Base.Element: Sendable {}

/// Where an interspersing iterator stands, for both forms (a separator value or closure, and a
/// throwing closure): which element comes next and when a separator is due.
struct IntersperseCursor<Element> {
    /// What goes out after a pull.
    enum Step {
        /// This element.
        case element(Element)
        /// A separator; the element pulled goes out at the next call.
        case separator
        /// Nothing: the base has finished.
        case end
    }

    let every: Int
    /// Elements emitted since the last separator; `nil` before the first element.
    private var count: Int?
    /// The element read ahead while a separator goes out.
    private var pending: Element?
    /// The base has finished or failed.
    private(set) var finished = false

    init(every: Int) {
        self.every = every
    }

    /// The element read ahead behind the last separator, if any: it goes out before any pull.
    mutating func takePending() -> Element? {
        guard let element = pending else { return nil }
        pending = nil
        count = 1
        return element
    }

    /// The base answered `element` (nil: it finished).
    mutating func pulled(_ element: Element?) -> Step {
        guard let element else {
            finished = true
            return .end
        }
        guard let emitted = count, emitted == every else {
            count = (count ?? 0) + 1
            return .element(element)
        }
        // The separator goes out first; the element follows at the next call.
        pending = element
        return .separator
    }

    /// The base or the separator threw: nothing more goes out.
    mutating func failed() {
        pending = nil
        finished = true
    }
}

extension IntersperseCursor: Sendable where Element: Sendable {}
