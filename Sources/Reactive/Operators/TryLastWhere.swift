extension Publisher {
    /// Publishes the last value that satisfies a throwing predicate, once upstream finishes.
    /// A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.tryLast { $0 < 3 }   // 2
    /// ```
    /// - Parameter predicate: Called for every value until it throws.
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryLast(where:)` returns.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the published value satisfies.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryLastWhereLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryLastWhereLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input) throws -> Bool
    @usableFromInline var last: Input?

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryLastWhere" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do {
            if try predicate(input) { last = input }
            return .skip(.none)
        } catch {
            return .fail(error)
        }
    }

    @inlinable mutating func result() -> Input? { last }
}
