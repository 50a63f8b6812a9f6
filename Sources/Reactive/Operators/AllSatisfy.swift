extension Publisher {
    /// Publishes `false` and finishes as soon as a value fails `predicate` (cancelling upstream),
    /// or `true` when upstream finishes with every value satisfying it.
    ///
    /// ```swift
    /// [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }   // true
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false`.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `allSatisfy(_:)` returns.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The condition every value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = AllSatisfyLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct AllSatisfyLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let predicate: (Input) -> Bool

    @inlinable init(predicate: @escaping (Input) -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "AllSatisfy" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Bool, UpstreamFailure> {
        predicate(input) ? .skip(.none) : .finish(false)
    }

    @inlinable mutating func result() -> Bool? { true }
}
