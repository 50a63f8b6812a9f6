extension Publisher {
    /// Skips values while a throwing predicate holds, then passes on every value from the first
    /// one that fails it. A thrown error becomes the one `.failure` and cancels upstream (C33).
    ///
    /// ```swift
    /// [1, 2, 5, 1].publisher.tryDrop { $0 < 3 }   // 5, 1
    /// ```
    /// - Parameter predicate: Called for each value until it returns `false` or throws.
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryDrop(while:)` returns.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// The condition skipped values satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryDropWhileLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryDropWhileLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline var predicate: ((Input) throws -> Bool)?

    @inlinable init(predicate: @escaping (Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryDropWhile" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        guard let predicate else { return .emit(input) }
        do {
            if try predicate(input) { return .skip(.max(1)) }
            self.predicate = nil
            return .emit(input)
        } catch {
            return .fail(error)
        }
    }
}
