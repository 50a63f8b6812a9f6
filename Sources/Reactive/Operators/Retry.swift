extension Publisher {
    /// Resubscribes to this publisher after a failure, up to `retries` times.
    ///
    /// Each new subscription is asked for the demand still outstanding (C37). When the last retry
    /// fails too, that failure is published. Resubscribing after a synchronous failure loops
    /// instead of recursing, so `Fail(error: e).retry(100_000)` runs in constant stack (C24).
    ///
    /// ```swift
    /// fetch().retry(3).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    /// - Parameter retries: The most resubscriptions; 0 passes the first failure through.
    /// - Returns: A publisher that retries this one.
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// The publisher `retry(_:)` returns.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher to resubscribe to.
        public let upstream: Upstream
        /// The most resubscriptions; `nil` retries forever.
        public let retries: Int?

        /// Creates a publisher that resubscribes to `upstream` after a failure.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // As Combine: the upstream is subscribed first, and its first subscription hands the
            // downstream its own.
            let storage = RetryStorage(downstream: subscriber, upstream: upstream, retries: retries)
            storage.start()
        }
    }
}

/// Each subscription of the upstream is a phase. A failure with retries left ends the phase and
/// asks for a resubscription; the thread inside `subscribeLoop` (the trampoline) performs it, so a
/// failure delivered synchronously from inside `subscribe` never nests another `subscribe`.
@usableFromInline
final class RetryStorage<Upstream: Publisher, Downstream: Subscriber>: RelayEngine<Downstream>
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline let upstream: Upstream
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var remaining: Int?
    /// A thread is inside `subscribeLoop`.
    @usableFromInline @exclusivity(unchecked) var looping = false
    /// A phase failed while `looping`: the looping thread subscribes again.
    @usableFromInline @exclusivity(unchecked) var resubscribe = false

    @usableFromInline enum RetryNext { case ignore, giveUp, loop }

    @inlinable
    init(downstream: Downstream, upstream: Upstream, retries: Int?) {
        self.upstream = upstream
        // A negative count never runs out, as in Combine.
        self.remaining = retries.flatMap { $0 < 0 ? nil : $0 }
        super.init(downstream: downstream, name: "Retry", requestsAddedDemand: true)
        downstreamNeedsSubscription = true
    }

    @inlinable
    func start() {
        let go = lock.guarded { () -> Bool in
            guard !terminated, !looping else { return false }
            looping = true
            return true
        }
        if go { subscribeLoop() }
    }

    @inlinable
    func subscribeLoop() {
        while true {
            let phase = lock.guarded { () -> Int? in
                guard !terminated else {
                    looping = false
                    return nil
                }
                resubscribe = false
                return generation
            }
            guard let phase else { return }
            upstream.subscribe(RelayLink(storage: self, generation: phase))
            let again = lock.guarded { () -> Bool in
                if resubscribe && !terminated { return true }
                looping = false
                return false
            }
            if !again { return }
        }
    }

    @inlinable
    override func phaseCompleted(_ completion: Subscribers.Completion<Failure>, generation phase: Int) {
        guard case .failure = completion else {
            terminate(completion, generation: phase)
            return
        }
        let next = lock.guarded { () -> RetryNext in
            guard !terminated, phase == generation else { return .ignore }
            if let left = remaining {
                if left == 0 { return .giveUp }
                remaining = left - 1
            }
            generation += 1
            current = nil
            if looping {
                resubscribe = true
                return .ignore
            }
            looping = true
            return .loop
        }
        switch next {
        case .ignore: return
        case .giveUp: terminate(completion, generation: phase)
        case .loop: subscribeLoop()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}
