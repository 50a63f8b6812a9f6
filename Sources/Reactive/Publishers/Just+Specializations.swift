// Combine's specialisations of operators on `Just`: a `Just` has its one value at hand, so
// these run the closure at once (when the operator is applied, not when subscribed) and return
// the simplest publisher of the result: another `Just`, an `Optional.Publisher` when the value
// may be dropped, a `Result.Publisher` when the closure may throw or the failure type changes.
// Generic code over `some Publisher` is unaffected: only a value typed `Just` picks these.

extension Just where Output: Comparable {
    /// The least value of one value: this `Just`.
    /// - Returns: `self`.
    @inlinable
    public func min() -> Just<Output> { self }

    /// The greatest value of one value: this `Just`.
    /// - Returns: `self`.
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Whether the value equals `output`, as a `Just`.
    ///
    /// ```swift
    /// Just(3).contains(3)   // Just(true)
    /// ```
    /// - Parameter output: The value to compare with.
    /// - Returns: `Just(output == self.output)`.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// One value has no duplicates: this `Just`.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Whether the value satisfies `predicate`, as a `Just` (the predicate runs now).
    /// - Parameter predicate: The test.
    /// - Returns: `Just` of the test's result.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Whether the value satisfies a throwing `predicate`, as a `Result.Publisher` (runs now).
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: The test's result, or its error as the failure.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The value in a one-element array, as a `Just`.
    /// - Returns: `Just([output])`.
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// The transformed value if `transform` returns one (runs now).
    ///
    /// ```swift
    /// Just("12").compactMap { Int($0) }   // Optional.Publisher(12)
    /// ```
    /// - Parameter transform: Returns the new value or `nil` to publish nothing.
    /// - Returns: An `Optional.Publisher` of the result.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// The least of one value by `areInIncreasingOrder`: this `Just` (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The greatest of one value by `areInIncreasingOrder`: this `Just` (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The elements, then the value, as one sequence publisher.
    /// - Parameter elements: What comes first.
    /// - Returns: `Publishers.Sequence` of `elements + [output]`.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

    /// The elements of a sequence, then the value, as one sequence publisher.
    /// - Parameter elements: What comes first.
    /// - Returns: `Publishers.Sequence` of the elements followed by the value.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: Array(elements) + [output])
    }

    /// The value, then the elements, as one sequence publisher.
    ///
    /// ```swift
    /// Just(1).append(2, 3)   // Publishers.Sequence([1, 2, 3])
    /// ```
    /// - Parameter elements: What follows.
    /// - Returns: `Publishers.Sequence` of `[output] + elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

    /// The value, then the elements of a sequence, as one sequence publisher.
    /// - Parameter elements: What follows.
    /// - Returns: `Publishers.Sequence` of the value followed by the elements.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: [output] + Array(elements))
    }

    /// Whether the value satisfies `predicate`, as a `Just` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: `Just` of the test's result.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Whether the value satisfies a throwing `predicate`, as a `Result.Publisher` (runs now).
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: The test's result, or its error as the failure.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The number of values: `Just(1)`.
    /// - Returns: `Just(1)`.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// The value unless at least one is dropped.
    /// - Parameter count: How many values to drop (a negative count drops none).
    /// - Returns: The value when `count <= 0`, otherwise nothing.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(count <= 0 ? output : nil)
    }

    /// The value unless `predicate` drops it (runs now).
    /// - Parameter predicate: Drops the value when it returns `true`.
    /// - Returns: An `Optional.Publisher` of what is left.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// The first value: this `Just`.
    /// - Returns: `self`.
    @inlinable
    public func first() -> Just<Output> { self }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The last value: this `Just`.
    /// - Returns: `self`.
    @inlinable
    public func last() -> Just<Output> { self }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The value if it satisfies `isIncluded` (runs now).
    ///
    /// ```swift
    /// Just(3).filter { $0 > 5 }   // Optional.Publisher(nil): finishes without a value
    /// ```
    /// - Parameter isIncluded: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// No value, only the finish.
    /// - Returns: `Empty()`.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty<Output, Never>() }

    /// The transformed value, as a `Just` (the transform runs now).
    ///
    /// ```swift
    /// let doubled: Just<Int> = Just(21).map { $0 * 2 }   // Just(42)
    /// ```
    /// - Parameter transform: Makes the new value.
    /// - Returns: `Just(transform(output))`.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// The transformed value, or the error it throws as the failure (runs now).
    /// - Parameter transform: Makes the new value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// The value with a new failure type (a `Just` never fails, so `transform` is never called).
    /// - Parameter transform: Would map the failure.
    /// - Returns: A `Result.Publisher` of the value.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// The value if `index` is 0.
    /// - Parameter index: The position wanted.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The value if `range` contains 0.
    ///
    /// Combine publishes the value for any range whose lower bound is 0, the empty `0..<0` too (a
    /// known Combine bug, not copied here: see "Coming from Combine").
    /// - Parameter range: The positions wanted.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).contains(0) ? output : nil)
    }

    /// The value if `maxLength` is at least 1.
    /// - Parameter maxLength: How many values to keep.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate` (runs now).
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the value or nothing.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// `nextPartialResult(initialResult, output)`, as a `Result.Publisher` (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: A `Result.Publisher` of the one result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// `nextPartialResult(initialResult, output)` or the error it throws (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// One value has no duplicates: this `Just` (the predicate is not called).
    /// - Parameter predicate: Would compare two values.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// One value has no duplicates: the value, or the error the predicate throws when asked to
    /// compare the value with itself (as Combine; runs now).
    /// - Parameter predicate: Compares two values; may throw.
    /// - Returns: A `Result.Publisher` of the value or the error.
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(Result { _ = try predicate(output, output); return output })
    }

    /// A `Just` never fails: this `Just`.
    /// - Parameter output: Would replace a failure.
    /// - Returns: `self`.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// A `Just` is never empty: this `Just`.
    /// - Parameter output: Would replace an empty stream.
    /// - Returns: `self`.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// A `Just` never fails, so there is nothing to retry: this `Just`.
    /// - Parameter times: Would be the number of retries.
    /// - Returns: `self`.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> { self }

    /// `nextPartialResult(initialResult, output)`, as a `Result.Publisher` (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: A `Result.Publisher` of the one step.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// `nextPartialResult(initialResult, output)` or the error it throws (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// The value with the failure type `E`.
    ///
    /// ```swift
    /// let p: Result<Int, MyError>.Publisher = Just(1).setFailureType(to: MyError.self)
    /// ```
    /// - Parameter failureType: The new failure type.
    /// - Returns: A `Result.Publisher` of the value.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }
}
