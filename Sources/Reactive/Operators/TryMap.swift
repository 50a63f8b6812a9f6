extension Publisher {
    /// Transforms every value with a closure that may throw; a thrown error fails the publisher.
    ///
    /// The first error becomes the one `.failure` downstream sees, upstream is cancelled and
    /// nothing follows it (C33).
    ///
    /// ```swift
    /// ["1", "x"].publisher.tryMap { s -> Int in
    ///     guard let n = Int(s) else { throw ParseError() }
    ///     return n
    /// }   // 1, then failure(ParseError)
    /// ```
    /// - Parameter transform: Called once per value, in order.
    /// - Returns: A publisher of the transformed values whose failure type is `any Error`.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher `tryMap(_:)` returns.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform applied to each value.
        public let transform: (Upstream.Output) throws -> Output

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryMapLogic<Upstream.Output, Output, Upstream.Failure>(transform: transform)
            subscribeStep(upstream, logic, subscriber)
        }
    }
}

@usableFromInline
struct TryMapLogic<Input, Output, UpstreamError: Error>: PerValueLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable init(transform: @escaping (Input) throws -> Output) { self.transform = transform }

    @usableFromInline static var operatorName: String { "TryMap" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Output, any Error> {
        do { return .emit(try transform(input)) } catch { return .fail(error) }
    }
}

extension Publishers.TryMap {
    /// A throwing map followed by a map fuse into one `TryMap` (Combine's specialisation).
    /// - Parameter transform: The second transform.
    /// - Returns: One throwing map over the same upstream.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { transform(try first($0)) }
    }

    /// Two throwing maps in a row fuse into one `TryMap` (Combine's specialisation).
    /// - Parameter transform: The second transform, which may throw.
    /// - Returns: One throwing map over the same upstream.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { try transform(first($0)) }
    }
}
