// Combine's specialisations of operators on `Result.Publisher`: the outcome is at hand, so these
// run the closure at once on a success (a failure passes through untouched) and return another
// `Result.Publisher`. A closure that may throw turns the failure type into `any Error`.
// `ignoreOutput()` is not specialised: Combine's returns `Empty`, which drops a failure (C04).

extension Result.Publisher where Success: Equatable {
    /// Whether the value equals `output`; a failure passes through.
    /// - Parameter output: The value to compare with.
    /// - Returns: A `Result.Publisher` of the comparison.
    @inlinable
    public func contains(_ output: Success) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// One value has no duplicates: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates() -> Result<Success, Failure>.Publisher { self }
}

extension Result.Publisher where Success: Comparable {
    /// The least of one value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func min() -> Result<Success, Failure>.Publisher { self }

    /// The greatest of one value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func max() -> Result<Success, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// Whether the value satisfies `predicate` (runs now); a failure passes through.
    /// - Parameter predicate: The test.
    /// - Returns: A `Result.Publisher` of the test's result.
    @inlinable
    public func allSatisfy(_ predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value satisfies a throwing `predicate` (runs now).
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: The test's result, or the failure or thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(tryOnValue(predicate))
    }

    /// Whether the value satisfies `predicate` (runs now); a failure passes through.
    /// - Parameter predicate: The test.
    /// - Returns: A `Result.Publisher` of the test's result.
    @inlinable
    public func contains(where predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value satisfies a throwing `predicate` (runs now).
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: The test's result, or the failure or thrown error.
    @inlinable
    public func tryContains(where predicate: (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(tryOnValue(predicate))
    }

    /// The value in a one-element array; a failure passes through.
    /// - Returns: A `Result.Publisher` of `[value]`.
    @inlinable
    public func collect() -> Result<[Success], Failure>.Publisher { Result<[Success], Failure>.Publisher(result.map { [$0] }) }

    /// The least of one value: this publisher (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func min(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher { self }

    /// The greatest of one value: this publisher (the closure is not called).
    /// - Parameter areInIncreasingOrder: The ordering.
    /// - Returns: `self`.
    @inlinable
    public func max(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher { self }

    /// The least of one value by a throwing ordering: the value, or the error the ordering
    /// throws when asked to compare the value with itself (as Combine).
    /// - Parameter areInIncreasingOrder: The ordering, which may throw.
    /// - Returns: A `Result.Publisher` of the value or the error.
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Success, Success) throws -> Bool) -> Result<Success, any Error>.Publisher {
        Result<Success, any Error>.Publisher(
            tryOnValue { value in
                _ = try areInIncreasingOrder(value, value); return value
            })
    }

    /// The greatest of one value by a throwing ordering: the value, or the error the ordering
    /// throws when asked to compare the value with itself (as Combine).
    /// - Parameter areInIncreasingOrder: The ordering, which may throw.
    /// - Returns: A `Result.Publisher` of the value or the error.
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Success, Success) throws -> Bool) -> Result<Success, any Error>.Publisher {
        Result<Success, any Error>.Publisher(
            tryOnValue { value in
                _ = try areInIncreasingOrder(value, value); return value
            })
    }

    /// 1 for a success; a failure passes through.
    /// - Returns: A `Result.Publisher` of the count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(result.map { _ in 1 }) }

    /// The first value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func first() -> Result<Success, Failure>.Publisher { self }

    /// The last value: this publisher.
    /// - Returns: `self`.
    @inlinable
    public func last() -> Result<Success, Failure>.Publisher { self }

    /// The transformed value (runs now); a failure passes through.
    ///
    /// ```swift
    /// let p: Result<String, MyError>.Publisher = Result<Int, MyError>.success(1).publisher.map { "\($0)" }
    /// ```
    /// - Parameter transform: Makes the new value.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func map<T>(_ transform: (Success) -> T) -> Result<T, Failure>.Publisher { Result<T, Failure>.Publisher(result.map(transform)) }

    /// The transformed value, the failure, or the error `transform` throws (runs now).
    /// - Parameter transform: Makes the new value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryOnValue(transform))
    }

    /// The value, or the failure mapped by `transform` (runs now).
    /// - Parameter transform: Maps the failure.
    /// - Returns: A `Result.Publisher` with the new failure type.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Success, E>.Publisher {
        Result<Success, E>.Publisher(result.mapError(transform))
    }

    /// One value has no duplicates: this publisher (the predicate is not called).
    /// - Parameter predicate: Would compare two values.
    /// - Returns: `self`.
    @inlinable
    public func removeDuplicates(by predicate: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher { self }

    /// The value, or the error the predicate throws when asked to compare the value with itself
    /// (as Combine); a failure passes through.
    /// - Parameter predicate: Compares two values; may throw.
    /// - Returns: A `Result.Publisher` of the value or the error.
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Success, Success) throws -> Bool) -> Result<Success, any Error>.Publisher {
        Result<Success, any Error>.Publisher(
            tryOnValue { value in
                _ = try predicate(value, value); return value
            })
    }

    /// The value, or `output` in place of a failure.
    /// - Parameter output: The value to publish in place of a failure.
    /// - Returns: A `Result.Publisher` that cannot fail.
    @inlinable
    public func replaceError(with output: Success) -> Result<Success, Never>.Publisher {
        switch result {
        case .success(let value): return Result<Success, Never>.Publisher(value)
        case .failure: return Result<Success, Never>.Publisher(output)
        }
    }

    /// A `Result.Publisher` is never empty: this publisher.
    /// - Parameter output: Would replace an empty stream.
    /// - Returns: `self`.
    @inlinable
    public func replaceEmpty(with output: Success) -> Result<Success, Failure>.Publisher { self }

    /// Retrying gives the same result again: this publisher.
    /// - Parameter times: Would be the number of retries.
    /// - Returns: `self`.
    @inlinable
    public func retry(_ times: Int) -> Result<Success, Failure>.Publisher { self }

    /// `nextPartialResult(initialResult, value)` (runs now); a failure passes through.
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: A `Result.Publisher` of the one result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`, the failure, or the error it throws (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Success) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryOnValue { try nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)` (runs now); a failure passes through.
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value.
    /// - Returns: A `Result.Publisher` of the one step.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`, the failure, or the error it throws (runs now).
    /// - Parameters:
    ///   - initialResult: The start of the accumulation.
    ///   - nextPartialResult: Combines the accumulation with the value; may throw.
    /// - Returns: A `Result.Publisher` of the outcome.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Success) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryOnValue { try nextPartialResult(initialResult, $0) })
    }

    /// Runs `body` on a success; the failure (or the error `body` throws) becomes `any Error`.
    @inlinable
    func tryOnValue<T>(_ body: (Success) throws -> T) -> Result<T, any Error> {
        switch result {
        case .success(let value): return Result<T, any Error> { try body(value) }
        case .failure(let error): return .failure(error)
        }
    }
}

extension Result.Publisher where Failure == Never {
    /// The value with the failure type `E`.
    /// - Parameter failureType: The new failure type.
    /// - Returns: A `Result.Publisher` of the value.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Success, E>.Publisher {
        switch result {
        case .success(let value): return Result<Success, E>.Publisher(value)
        }
    }
}
