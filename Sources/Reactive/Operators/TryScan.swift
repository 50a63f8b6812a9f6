extension Publisher {
    /// Publishes each running result of an accumulating closure that may throw.
    ///
    /// A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 3].publisher.tryScan(0) { sum, n in
    ///     if n == 3 { throw Stop() }
    ///     return sum + n
    /// }   // 1, 3, then failure(Stop)
    /// ```
    /// - Parameters:
    ///   - initialResult: The accumulator before the first value.
    ///   - nextPartialResult: Combines the accumulator with the next value.
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher `tryScan(_:_:)` returns.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The accumulator before the first value.
        public let initialResult: Output
        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        @inlinable
        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryScanLogic<Upstream.Output, Output, Upstream.Failure>(result: initialResult, nextPartialResult: nextPartialResult)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryScanLogic<Input, Output, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline var result: Output
    @usableFromInline let nextPartialResult: (Output, Input) throws -> Output

    @inlinable
    init(result: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
        self.result = result
        self.nextPartialResult = nextPartialResult
    }

    @usableFromInline static var operatorName: String { "TryScan" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Output, any Error> {
        do {
            result = try nextPartialResult(result, input)
            return .emit(result)
        } catch {
            return .fail(error)
        }
    }
}
