// Combine's specialisations of operators on `Optional.Publisher`: the value (if any) is at
// hand, so these run the closure at once and return another `Optional.Publisher` (or a `Just`,
// or `Empty`). As in Combine they work on the optional itself: an empty `Optional.Publisher`
// stays empty, so `count()`, `allSatisfy` and `reduce` of `nil` publish nothing (the generic
// operators would publish 0, `true` and the initial result).

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value equals `output`; nothing when there is no value.
    /// - Parameter output: The value to compare with.
    /// - Returns: An `Optional.Publisher` of the comparison.
    @inlinable
    public func contains(_ output: Wrapped) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// At most one value has no duplicates: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// The least of at most one value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// The greatest of at most one value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Whether the value satisfies `predicate` (runs now); nothing when there is no value.
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the test's result.
    @inlinable
    public func allSatisfy(_ predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in a one-element array, or `[]` when there is no value: like the general
    /// `collect()`, which emits the empty array for an upstream that finishes without values
    /// (Combine: `Optional<Int>.none.publisher.collect()` emits `[]`).
    /// - Returns: An `Optional.Publisher` of `[value]` or `[]`.
    @inlinable
    public func collect() -> Optional<[Wrapped]>.Publisher { Optional<[Wrapped]>.Publisher(output.map { [$0] } ?? []) }

    /// The transformed value if `transform` returns one (runs now).
    /// - Parameter transform: Returns the new value or `nil`.
    /// - Returns: An `Optional.Publisher` of the result.
    @inlinable
    public func compactMap<T>(_ transform: (Wrapped) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// The least of at most one value: this publisher (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func min(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// The greatest of at most one value: this publisher (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func max(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Whether the value satisfies `predicate` (runs now); nothing when there is no value.
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the test's result.
    @inlinable
    public func contains(where predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// 1 when there is a value; nothing otherwise (as Combine).
    ///
    /// ```swift
    /// Optional(5).publisher.count()   // publishes 1
    /// ```
    /// - Returns: An `Optional.Publisher` of the count.
    @inlinable
    public func count() -> Optional<Int>.Publisher { Optional<Int>.Publisher(output.map { _ in 1 }) }

    /// The value unless at least one is dropped.
    /// - Parameter count: How many values to drop (a negative count drops none).
    /// - Returns: The value when `count <= 0`, otherwise nothing.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(count <= 0 ? output : nil)
    }

    /// The value unless `predicate` drops it (runs now).
    /// - Parameter predicate: Drops the value when it returns `true`.
    /// - Returns: An `Optional.Publisher` of what is left.
    @inlinable
    public func drop(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The first value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher { self }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func first(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// The last value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher { self }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func last(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// The value if it satisfies `isIncluded` (runs now).
    /// - Parameter isIncluded: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func filter(_ isIncluded: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// No value, only the finish.
    /// - Returns: `Empty()`.
    @inlinable
    public func ignoreOutput() -> Empty<Wrapped, Never> { Empty<Wrapped, Never>() }

    /// The transformed value (runs now); nothing when there is no value.
    ///
    /// ```swift
    /// let p: Optional<String>.Publisher = Optional(1).publisher.map { "\($0)" }
    /// ```
    /// - Parameter transform: Makes the new value.
    /// - Returns: An `Optional.Publisher` of the result.
    @inlinable
    public func map<T>(_ transform: (Wrapped) -> T) -> Optional<T>.Publisher { Optional<T>.Publisher(output.map(transform)) }

    /// The value if `index` is 0.
    /// - Parameter index: The position wanted.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// The value if `range` contains 0.
    /// - Parameter range: The positions wanted.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        Optional<Wrapped>.Publisher(range.relative(to: 0..<Int.max).contains(0) ? output : nil)
    }

    /// The value if `maxLength` is at least 1.
    /// - Parameter maxLength: How many values to keep.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func prefix(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { filter(predicate) }

    /// `nextPartialResult(initialResult, value)`; nothing when there is no value (as Combine).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: An `Optional.Publisher` of the one result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`; nothing when there is no value.
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: An `Optional.Publisher` of the one step.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// At most one value has no duplicates: this publisher (the predicate is not called).
    /// - Parameter predicate: Would compare two values.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates(by predicate: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// An `Optional.Publisher` never fails: this publisher.
    /// - Parameter output: Would replace a failure.
    /// - Returns: `self`.
    @inlinable
    public func replaceError(with output: Wrapped) -> Optional<Wrapped>.Publisher { self }

    /// The value, or `output` when there is none, as a `Just`.
    ///
    /// ```swift
    /// Optional<Int>.none.publisher.replaceEmpty(with: 0)   // Just(0)
    /// ```
    /// - Parameter output: The value to publish when there is none.
    /// - Returns: A `Just`.
    @inlinable
    public func replaceEmpty(with output: Wrapped) -> Just<Wrapped> { Just<Wrapped>(self.output ?? output) }

    /// An `Optional.Publisher` never fails, so there is nothing to retry: this publisher.
    /// - Parameter times: Would be the number of retries.
    /// - Returns: `self`.
    @inlinable
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher { self }
}
