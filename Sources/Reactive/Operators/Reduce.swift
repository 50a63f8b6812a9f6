extension Publisher {
    /// Combines every value with an accumulating closure and publishes the final result when
    /// upstream finishes.
    ///
    /// It asks upstream for everything at once and holds the result until downstream demand
    /// arrives (C03).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.reduce(0, +)   // 6
    /// ```
    /// - Parameters:
    ///   - initialResult: The accumulator before the first value (published if there is none).
    ///   - nextPartialResult: Combines the accumulator with the next value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher `reduce(_:_:)` returns.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The accumulator before the first value.
        public let initial: Output
        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        @inlinable
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = ReduceLogic<Upstream.Output, Output, Upstream.Failure>(result: initial, next: nextPartialResult)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct ReduceLogic<Input, Output, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline var accumulator: Output
    @usableFromInline let next: (Output, Input) -> Output

    @inlinable
    init(result: Output, next: @escaping (Output, Input) -> Output) {
        self.accumulator = result
        self.next = next
    }

    @usableFromInline static var operatorName: String { "Reduce" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Output, UpstreamFailure> {
        accumulator = next(accumulator, input)
        return .skip(.none)
    }

    @inlinable mutating func result() -> Output? { accumulator }
}
