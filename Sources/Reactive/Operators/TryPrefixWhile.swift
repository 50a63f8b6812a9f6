extension Publisher {
    /// Publishes values while a throwing predicate holds; at the first value that fails it,
    /// finishes and cancels upstream. A thrown error becomes the one `.failure` (C33).
    ///
    /// ```swift
    /// [1, 2, 5].publisher.tryPrefix { $0 < 3 }   // 1, 2
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false` or throws.
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryPrefix(while:)` returns.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition each published value satisfies.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: StepLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) throws -> Bool

            @inlinable init(predicate: @escaping (Upstream.Output) throws -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "TryPrefixWhile" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, any Error> {
                do { return try predicate(input) ? .emit(input) : .finish(nil) } catch { return .fail(error) }
            }
        }
    }
}
