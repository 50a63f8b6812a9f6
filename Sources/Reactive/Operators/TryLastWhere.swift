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
            upstream.subscribe(StepSubscription(logic: Logic(predicate: predicate), downstream: subscriber))
        }

        @usableFromInline
        struct Logic: ReducerLogic {
            @usableFromInline typealias UpstreamFailure = Upstream.Failure
            @usableFromInline let predicate: (Upstream.Output) throws -> Bool
            @usableFromInline var last: Upstream.Output?

            @inlinable init(predicate: @escaping (Upstream.Output) throws -> Bool) { self.predicate = predicate }

            @usableFromInline static var operatorName: String { "TryLastWhere" }

            @inlinable
            mutating func receive(_ input: Upstream.Output) -> Step<Upstream.Output, any Error> {
                do {
                    if try predicate(input) { last = input }
                    return .skip(.none)
                } catch {
                    return .fail(error)
                }
            }

            @inlinable mutating func result() -> Upstream.Output? { last }
        }
    }
}
