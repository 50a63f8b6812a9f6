extension Dictionary {
    /// Creates a dictionary from an asynchronous sequence of key-value pairs whose keys are unique.
    ///
    /// Waits until `keysAndValues` ends. As with the standard library's initializer of the same
    /// name, a repeated key is a programming error and stops the program.
    ///
    /// ```swift
    /// let ages = await Dictionary(uniqueKeysWithValues: [("Ada", 36), ("Alan", 41)].async)
    /// ```
    ///
    /// - Parameter keysAndValues: The pairs to collect.
    /// - Throws: An error thrown by `keysAndValues`.
    public init<S: AsyncSequence>(uniqueKeysWithValues keysAndValues: S) async rethrows where S.Element == (Key, Value) {
        self.init()
        for try await (key, value) in keysAndValues {
            precondition(updateValue(value, forKey: key) == nil, "Dictionary(uniqueKeysWithValues:) found the key \(key) twice")
        }
    }

    /// Creates a dictionary from an asynchronous sequence of key-value pairs, combining the values
    /// of a repeated key with `combine`.
    ///
    /// ```swift
    /// let totals = await Dictionary(sales.async, uniquingKeysWith: +)
    /// ```
    ///
    /// - Parameters:
    ///   - keysAndValues: The pairs to collect.
    ///   - combine: Makes the value kept for a repeated key from the value kept so far and the new one.
    /// - Throws: An error thrown by `keysAndValues` or `combine`.
    public init<S: AsyncSequence>(
        _ keysAndValues: S,
        uniquingKeysWith combine: (Value, Value) async throws -> Value
    ) async rethrows where S.Element == (Key, Value) {
        self.init()
        for try await (key, value) in keysAndValues {
            guard let kept = self[key] else {
                self[key] = value
                continue
            }
            self[key] = try await combine(kept, value)
        }
    }

    /// Creates a dictionary whose values are arrays of the elements of an asynchronous sequence,
    /// grouped by the key `keyForValue` gives each; each array keeps the sequence's order.
    ///
    /// ```swift
    /// let byInitial = await Dictionary(grouping: names.async, by: { $0.first! })
    /// ```
    ///
    /// - Parameters:
    ///   - values: The elements to group.
    ///   - keyForValue: The key of an element's group.
    /// - Throws: An error thrown by `values` or `keyForValue`.
    public init<S: AsyncSequence>(grouping values: S, by keyForValue: (S.Element) async throws -> Key) async rethrows
    where Value == [S.Element] {
        self.init()
        for try await value in values {
            let key = try await keyForValue(value)
            self[key, default: []].append(value)
        }
    }
}
