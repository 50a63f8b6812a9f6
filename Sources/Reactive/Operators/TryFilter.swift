extension Publisher {
    /// Passes on the values for which a throwing predicate returns `true`.
    ///
    /// A dropped value asks upstream for one more (C13); a thrown error becomes the one
    /// `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3, 4].publisher.tryFilter { n in
    ///     if n == 4 { throw Stop() }
    ///     return n.isMultiple(of: 2)
    /// }   // 2, then failure(Stop)
    /// ```
    /// - Parameter isIncluded: Called once per value.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// The publisher `tryFilter(_:)` returns.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate a value must satisfy to pass.
        public let isIncluded: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryFilterLogic<Upstream.Output, Upstream.Failure>(isIncluded: isIncluded)
            subscribeStep(upstream, logic, subscriber)
        }
    }
}

@usableFromInline
struct TryFilterLogic<Input, UpstreamError: Error>: PerValueLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let isIncluded: (Input) throws -> Bool

    @inlinable init(isIncluded: @escaping (Input) throws -> Bool) { self.isIncluded = isIncluded }

    @usableFromInline static var operatorName: String { "TryFilter" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do { return try isIncluded(input) ? .emit(input) : .skip(.max(1)) } catch { return .fail(error) }
    }
}

extension Publishers.TryFilter {
    /// A throwing filter followed by a filter fuse into one `TryFilter` (Combine's specialisation).
    /// - Parameter isIncluded: The second test.
    /// - Returns: One throwing filter over the same upstream.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Two throwing filters in a row fuse into one `TryFilter` (Combine's specialisation).
    /// - Parameter isIncluded: The second test, which may throw.
    /// - Returns: One throwing filter over the same upstream.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}
