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
            let logic = TryPrefixWhileLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryPrefixWhileLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryPrefixWhile" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do { return try predicate(input) ? .emit(input) : .finish(nil) } catch { return .fail(error) }
    }
}
