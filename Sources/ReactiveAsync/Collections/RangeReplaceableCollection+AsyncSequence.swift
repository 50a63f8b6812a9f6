extension RangeReplaceableCollection {
    /// Creates a collection of the elements of an asynchronous sequence, in order.
    ///
    /// Waits until `source` ends.
    ///
    /// ```swift
    /// let values = await Array([1, 2, 3].async)
    /// ```
    ///
    /// - Parameter source: The asynchronous sequence to collect.
    /// - Throws: An error thrown by `source`.
    public init<Source: AsyncSequence>(_ source: Source) async rethrows where Source.Element == Element {
        self.init()
        for try await element in source {
            append(element)
        }
    }
}

extension SetAlgebra {
    /// Creates a set of the elements of an asynchronous sequence.
    ///
    /// Waits until `source` ends; repeated elements are kept once.
    ///
    /// ```swift
    /// let distinct = await Set([1, 2, 1].async)
    /// ```
    ///
    /// - Parameter source: The asynchronous sequence to collect.
    /// - Throws: An error thrown by `source`.
    public init<Source: AsyncSequence>(_ source: Source) async rethrows where Source.Element == Element {
        self.init()
        for try await element in source {
            insert(element)
        }
    }
}
