extension Publisher where Output: Comparable {
    /// Publishes the smallest value once upstream finishes (the first of equal ones).
    ///
    /// ```swift
    /// [3, 1, 2].publisher.min()   // 1
    /// ```
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the largest value once upstream finishes (the first of equal ones).
    ///
    /// ```swift
    /// [3, 1, 2].publisher.max()   // 3
    /// ```
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the smallest value by an ordering once upstream finishes.
    ///
    /// ```swift
    /// ["bb", "a"].publisher.min { $0.count < $1.count }   // "a"
    /// ```
    /// - Parameter areInIncreasingOrder: Whether the first argument orders before the second.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the largest value by an ordering once upstream finishes.
    ///
    /// ```swift
    /// ["bb", "a"].publisher.max { $0.count < $1.count }   // "bb"
    /// ```
    /// - Parameter areInIncreasingOrder: Whether the first argument orders before the second.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// The publisher `min`, `max`, `min(by:)` and `max(by:)` return: it publishes the greatest
    /// value by `areInIncreasingOrder` (`min` passes the ordering reversed).
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// A later value replaces the kept one when `areInIncreasingOrder(kept, later)`.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = ComparisonLogic<Upstream.Output, Upstream.Failure>(areInIncreasingOrder: areInIncreasingOrder)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct ComparisonLogic<Input, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let areInIncreasingOrder: (Input, Input) -> Bool
    @usableFromInline var kept: Input?

    @inlinable
    init(areInIncreasingOrder: @escaping (Input, Input) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    @usableFromInline static var operatorName: String { "Comparison" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        if let kept, !areInIncreasingOrder(kept, input) { return .skip(.none) }
        kept = input
        return .skip(.none)
    }

    @inlinable mutating func result() -> Input? { kept }
}
