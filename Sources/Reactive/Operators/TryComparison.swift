extension Publisher {
    /// Publishes the smallest value by a throwing ordering once upstream finishes. A thrown
    /// error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [3, 1, 2].publisher.tryMin { $0 < $1 }   // 1
    /// ```
    /// - Parameter areInIncreasingOrder: Whether the first argument orders before the second.
    @inlinable
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the largest value by a throwing ordering once upstream finishes. A thrown error
    /// becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [3, 1, 2].publisher.tryMax { $0 < $1 }   // 3
    /// ```
    /// - Parameter areInIncreasingOrder: Whether the first argument orders before the second.
    @inlinable
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// The publisher `tryMin(by:)` and `tryMax(by:)` return: it publishes the greatest value by
    /// `areInIncreasingOrder` (`tryMin` passes the ordering reversed).
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// A later value replaces the kept one when `areInIncreasingOrder(kept, later)`.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryComparisonLogic<Upstream.Output, Upstream.Failure>(areInIncreasingOrder: areInIncreasingOrder)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryComparisonLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let areInIncreasingOrder: (Input, Input) throws -> Bool
    @usableFromInline var kept: Input?

    @inlinable
    init(areInIncreasingOrder: @escaping (Input, Input) throws -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    @usableFromInline static var operatorName: String { "TryComparison" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do {
            if let kept, try !areInIncreasingOrder(kept, input) { return .skip(.none) }
            kept = input
            return .skip(.none)
        } catch {
            return .fail(error)
        }
    }

    @inlinable mutating func result() -> Input? { kept }
}
