extension Publisher {
    /// Transforms every value with a closure that may throw, passing on the non-`nil` results.
    ///
    /// A `nil` result asks upstream for one more value (C13); a thrown error becomes the one
    /// `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// ["1", "x", "3"].publisher.tryCompactMap { s -> Int? in
    ///     if s == "3" { throw Stop() }
    ///     return Int(s)
    /// }   // 1, then failure(Stop)
    /// ```
    /// - Parameter transform: Called once per value; return `nil` to drop it.
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher `tryCompactMap(_:)` returns.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transform; `nil` drops the value, a thrown error fails the publisher.
        public let transform: (Upstream.Output) throws -> Output?

        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryCompactMapLogic<Upstream.Output, Output, Upstream.Failure>(transform: transform)
            subscribeStep(upstream, logic, subscriber)
        }
    }
}

@usableFromInline
struct TryCompactMapLogic<Input, Output, UpstreamError: Error>: PerValueLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable init(transform: @escaping (Input) throws -> Output?) { self.transform = transform }

    @usableFromInline static var operatorName: String { "TryCompactMap" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Output, any Error> {
        do {
            if let output = try transform(input) { return .emit(output) }
            return .skip(.max(1))
        } catch {
            return .fail(error)
        }
    }
}

extension Publishers.TryCompactMap {
    /// Two throwing compactMaps in a row fuse into one `TryCompactMap` (Combine's specialisation).
    /// - Parameter transform: The second transform, which may throw or return `nil`.
    /// - Returns: One throwing compactMap over the same upstream.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap<Upstream, T>(upstream: upstream) { try first($0).flatMap(transform) }
    }
}
