extension Publisher {
    /// Publishes only the value at `index` (counting from 0), then finishes and cancels upstream.
    ///
    /// ```swift
    /// ["a", "b", "c"].publisher.output(at: 1)   // "b"
    /// ```
    /// - Parameter index: The position of the value to publish.
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index..<(index == Int.max ? index : index + 1))
    }

    /// Publishes only the values whose positions lie in `range`, then finishes and cancels upstream.
    ///
    /// Skipped values ask upstream for one more each, so demand is never lost (C13).
    ///
    /// ```swift
    /// (0...9).publisher.output(in: 2...4)   // 2, 3, 4
    /// ```
    /// - Parameter range: The positions to publish (counting from 0).
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Publishes at most the first `maxLength` values, then finishes and cancels upstream.
    ///
    /// ```swift
    /// (1...10).publisher.prefix(3)   // 1, 2, 3
    /// ```
    /// - Parameter maxLength: How many values to publish; `0` finishes at once.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        output(in: 0..<Swift.max(0, maxLength))
    }
}

extension Publishers {
    /// The publisher `output(at:)`, `output(in:)` and `prefix(_:)` return.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are picked.
        public let upstream: Upstream
        /// The positions of the published values.
        public let range: CountableRange<Int>

        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            self.upstream = upstream
            self.range = range.lowerBound < 0 ? 0..<Swift.max(0, range.upperBound) : range
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = OutputLogic<Upstream.Output, Upstream.Failure>(range: range)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct OutputLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline let range: CountableRange<Int>
    @usableFromInline var index = 0

    @inlinable init(range: CountableRange<Int>) { self.range = range }

    @usableFromInline static var operatorName: String { "Output" }
    @inlinable var isFinishedAtStart: Bool { range.isEmpty }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, UpstreamFailure> {
        let position = index
        index += 1
        // `prefix(0)`: a source that emits as soon as it is asked (a sequence, from inside the
        // first request) must not get a value through before the at-start finish.
        if range.isEmpty || position >= range.upperBound { return .finish(nil) }
        if position < range.lowerBound { return .skip(.max(1)) }
        if position + 1 >= range.upperBound { return .finish(input) }
        return .emit(input)
    }
}

/// Equal when their upstreams (and parameters) are equal, as in Combine.
extension Publishers.Output: Equatable where Upstream: Equatable {}
