extension Publisher {
    /// Passes on a value only if a throwing `predicate` says it is not a duplicate of the
    /// previous value passed on. A thrown error becomes the one `.failure` (C33).
    ///
    /// ```swift
    /// [1, 1, 2].publisher.tryRemoveDuplicates { $0 == $1 }   // 1, 2
    /// ```
    /// - Parameter predicate: Returns `true` when the new value duplicates the previous one.
    @inlinable
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher `tryRemoveDuplicates(by:)` returns.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose repeated values are skipped.
        public let upstream: Upstream
        /// Whether the second value duplicates the first.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let logic = TryRemoveDuplicatesLogic<Upstream.Output, Upstream.Failure>(predicate: predicate)
            upstream.receive(subscriber: StepEngine(logic: logic, downstream: subscriber))
        }
    }
}

@usableFromInline
struct TryRemoveDuplicatesLogic<Input, UpstreamError: Error>: StepLogic {
    @usableFromInline typealias UpstreamFailure = UpstreamError
    @usableFromInline typealias Failure = any Error
    @usableFromInline let predicate: (Input, Input) throws -> Bool
    @usableFromInline var last: Input?

    @inlinable init(predicate: @escaping (Input, Input) throws -> Bool) { self.predicate = predicate }

    @usableFromInline static var operatorName: String { "TryRemoveDuplicates" }

    @inlinable
    mutating func receive(_ input: Input) -> Step<Input, any Error> {
        do {
            if let last, try predicate(last, input) { return .skip(.max(1)) }
            last = input
            return .emit(input)
        } catch {
            return .fail(error)
        }
    }
}
