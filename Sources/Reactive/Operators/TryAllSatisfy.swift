extension Publisher {
    /// Publishes `false` and finishes as soon as a value fails a throwing `predicate`
    /// (cancelling upstream), or `true` when upstream finishes with every value satisfying it.
    /// A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [2, 4, 6].publisher.tryAllSatisfy { $0 > 0 }   // true
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false` or throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryAllSatisfy(_:)` returns.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The condition every value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryAllSatisfyLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryAllSatisfyLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input) throws -> Bool

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryAllSatisfy" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Bool, any Error> {
        do { return try predicate(input) ? .skip(.none) : .finish(false) } catch { return .fail(error) }
    }

    @inlinable mutating func result() -> Bool? { true }
}
