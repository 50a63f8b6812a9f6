extension Publisher {
    /// Combines every value with an accumulating closure that may throw, and publishes the final
    /// result when upstream finishes.
    ///
    /// A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.tryReduce(0) { sum, n in
    ///     guard sum < 100 else { throw Overflow() }
    ///     return sum + n
    /// }   // 6
    /// ```
    /// - Parameters:
    ///   - initialResult: The accumulator before the first value (published if there is none).
    ///   - nextPartialResult: Combines the accumulator with the next value.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher `tryReduce(_:_:)` returns.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The accumulator before the first value.
        public let initial: Output
        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        @inlinable
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryReduceLogic<Upstream.Output, Output, Upstream.Failure>(result: initial, next: nextPartialResult)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryReduceLogic<Input, Output, UpstreamError: Error>: ReducerLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline var accumulator: Output
    @usableFromInline let next: (Output, Input) throws -> Output

    @inlinable
    init(result: Output, next: @escaping (Output, Input) throws -> Output) {
        self.accumulator = result
        self.next = next
    }

    @usableFromInline static var operatorName: String { "TryReduce" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Output, any Error> {
        do {
            accumulator = try next(accumulator, input)
            return .skip(.none)
        } catch {
            return .fail(error)
        }
    }

    @inlinable mutating func result() -> Output? { accumulator }
}
