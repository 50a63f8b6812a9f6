extension Publisher {
    /// Replaces `nil` values with `output`.
    ///
    /// ```swift
    /// [1, nil, 3].publisher.replaceNil(with: 0)   // 1, 0, 3
    /// ```
    /// - Parameter output: The value published in place of `nil`.
    /// - Returns: A `Publishers.Map`, as in Combine.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
