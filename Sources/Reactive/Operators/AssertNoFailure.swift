extension Publisher {
    /// Traps if upstream fails; otherwise passes everything through, with the failure type `Never`.
    ///
    /// Use it where a failure is a programming error. Like Combine's, it stops the process with
    /// `fatalError` in every build configuration; reach for `replaceError` or `catch` otherwise.
    ///
    /// ```swift
    /// numbers.assertNoFailure("numbers").sink { print($0) }
    /// ```
    /// - Parameters:
    ///   - prefix: Text that starts the trap message.
    ///   - file: The file reported by the trap.
    ///   - line: The line reported by the trap.
    @inlinable
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// The publisher `assertNoFailure(_:file:line:)` returns.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher that must not fail.
        public let upstream: Upstream
        /// Text that starts the trap message.
        public let prefix: String
        /// The file reported by the trap.
        public let file: StaticString
        /// The line reported by the trap.
        public let line: UInt

        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: AssertNoFailureSubscriber<S, Upstream.Failure>(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

/// AssertNoFailure's subscriber (top level for the reason given on `MapSubscriber`).
@usableFromInline
struct AssertNoFailureSubscriber<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, CustomStringConvertible
where Downstream.Failure == Never {
    @usableFromInline let downstream: Downstream
    @usableFromInline let prefix: String
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
        self.downstream = downstream
        self.prefix = prefix
        self.file = file
        self.line = line
    }

    @usableFromInline var description: String { "AssertNoFailure" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Downstream.Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            let text = prefix.isEmpty ? "\(error)" : "\(prefix) \(error)"
            fatalError(text, file: file, line: line)
        }
    }
}
