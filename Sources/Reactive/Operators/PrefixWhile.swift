extension Publisher {
    /// Publishes values while a predicate holds; at the first value that fails it, finishes and
    /// cancels upstream (that value is not published).
    ///
    /// ```swift
    /// [1, 2, 5, 1].publisher.prefix { $0 < 3 }   // 1, 2
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false`.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `prefix(while:)` returns.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition each published value satisfies.
        public let predicate: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = PrefixWhileLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct PrefixWhileLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let predicate: (Input) -> Bool

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "PrefixWhile" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        predicate(input) ? .emit(input) : .finish(nil)
    }
}
