extension Publisher {
    /// Replaces a failure with another publisher.
    ///
    /// When this publisher fails, `handler` makes the replacement, which is subscribed and asked
    /// for the demand still outstanding (C38). A normal finish passes through.
    ///
    /// ```swift
    /// Fail<Int, MyError>(error: .boom).catch { _ in Just(0) }   // 0
    /// ```
    /// - Parameter handler: Makes the replacement publisher from the error.
    /// - Returns: A publisher that continues with the replacement after a failure.
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Replaces a failure with another publisher, or fails with the error `handler` throws.
    ///
    /// ```swift
    /// upstream.tryCatch { error -> Just<Int> in
    ///     guard error.isRecoverable else { throw error }
    ///     return Just(0)
    /// }
    /// ```
    /// - Parameter handler: Makes the replacement publisher, or throws to fail with a new error.
    /// - Returns: A publisher that continues with the replacement after a failure.
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// The publisher `catch(_:)` returns.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is replaced.
        public let upstream: Upstream
        /// Makes the replacement publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that replaces `upstream`'s failure with `handler`'s publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = CatchStorage<Upstream, NewPublisher, S>(downstream: subscriber, handler: handler)
            subscriber.receive(subscription: storage)
            upstream.subscribe(CatchStorage<Upstream, NewPublisher, S>.UpstreamLink(storage: storage))
        }
    }

    /// The publisher `tryCatch(_:)` returns.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher whose failure is replaced.
        public let upstream: Upstream
        /// Makes the replacement publisher, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that replaces `upstream`'s failure with `handler`'s publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = TryCatchStorage<Upstream, NewPublisher, S>(downstream: subscriber, handler: handler)
            subscriber.receive(subscription: storage)
            upstream.subscribe(TryCatchStorage<Upstream, NewPublisher, S>.UpstreamLink(storage: storage))
        }
    }
}

/// Phase 0 is the upstream; its failure starts phase 1, the replacement.
@usableFromInline
final class CatchStorage<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: RelayEngine<Downstream>
where Upstream.Output == Downstream.Input, NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
    /// Until it is called or the relay ends (guarded by `lock`).
    @usableFromInline @exclusivity(unchecked) var handler: ((Upstream.Failure) -> NewPublisher)?

    @inlinable
    init(downstream: Downstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
        self.handler = handler
        super.init(downstream: downstream, name: "Catch")
    }

    @inlinable
    override func takeKept() -> Any? { handler.take() }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished:
            terminate(.finished, generation: 0)
        case .failure(let error):
            guard let next = endPhase(0), let handler = lock.guarded({ self.handler.take() }) else { return }
            handler(error).subscribe(RelayLink(storage: self, generation: next))
        }
    }

    @usableFromInline
    struct UpstreamLink: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure
        @usableFromInline let storage: CatchStorage
        @usableFromInline let combineIdentifier = CombineIdentifier()
        @inlinable init(storage: CatchStorage) { self.storage = storage }
        @usableFromInline var description: String { "Catch" }
        @inlinable func receive(subscription: any Subscription) { storage.attach(subscription, generation: 0) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand { storage.relay(input, generation: 0) }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.upstreamCompleted(completion) }
    }
}

/// Like `CatchStorage`, but the handler may throw and the replacement's failure becomes `Error`.
@usableFromInline
final class TryCatchStorage<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: RelayEngine<Downstream>
where Upstream.Output == Downstream.Input, NewPublisher.Output == Downstream.Input, Downstream.Failure == any Error {
    /// Until it is called or the relay ends (guarded by `lock`).
    @usableFromInline @exclusivity(unchecked) var handler: ((Upstream.Failure) throws -> NewPublisher)?

    @inlinable
    init(downstream: Downstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
        self.handler = handler
        super.init(downstream: downstream, name: "TryCatch")
    }

    @inlinable
    override func takeKept() -> Any? { handler.take() }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished:
            terminate(.finished, generation: 0)
        case .failure(let error):
            guard let next = endPhase(0), let handler = lock.guarded({ self.handler.take() }) else { return }
            do {
                try handler(error).subscribe(ReplacementLink(storage: self, generation: next))
            } catch {
                terminate(.failure(error), generation: next)
            }
        }
    }

    @usableFromInline
    struct UpstreamLink: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure
        @usableFromInline let storage: TryCatchStorage
        @usableFromInline let combineIdentifier = CombineIdentifier()
        @inlinable init(storage: TryCatchStorage) { self.storage = storage }
        @usableFromInline var description: String { "TryCatch" }
        @inlinable func receive(subscription: any Subscription) { storage.attach(subscription, generation: 0) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand { storage.relay(input, generation: 0) }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { storage.upstreamCompleted(completion) }
    }

    @usableFromInline
    struct ReplacementLink: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = NewPublisher.Output
        @usableFromInline typealias Failure = NewPublisher.Failure
        @usableFromInline let storage: TryCatchStorage
        @usableFromInline let generation: Int
        @usableFromInline let combineIdentifier = CombineIdentifier()
        @inlinable init(storage: TryCatchStorage, generation: Int) {
            self.storage = storage
            self.generation = generation
        }
        @usableFromInline var description: String { "TryCatch" }
        @inlinable func receive(subscription: any Subscription) { storage.attach(subscription, generation: generation) }
        @inlinable func receive(_ input: Input) -> Subscribers.Demand { storage.relay(input, generation: generation) }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            storage.terminate(completion.mapError { $0 as any Error }, generation: generation)
        }
    }
}
