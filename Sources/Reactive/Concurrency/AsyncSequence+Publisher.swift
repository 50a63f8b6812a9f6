extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements, iterated in one task per subscription as demand
    /// arrives.
    ///
    /// ```swift
    /// let stream = AsyncStream<Int> { c in c.yield(1); c.yield(2); c.finish() }
    /// stream.publisher.sink { print($0) }   // 1 2
    /// ```
    public var publisher: Publishers.AsyncSequence<Self> { Publishers.AsyncSequence(self) }
}

extension Publishers {
    /// Publishes the elements of an `AsyncSequence`, then finishes (or fails with its error).
    ///
    /// Each subscription iterates in its own task, started on the first demand; the task asks the
    /// iterator for an element only while downstream demand is outstanding, and waits otherwise.
    /// Cancelling the subscription cancels the task (the iterator's `next()` sees cancellation);
    /// nothing is sent after that, not even a completion.
    public struct AsyncSequence<Base: _Concurrency.AsyncSequence & Sendable>: Publisher, Sendable {
        public typealias Output = Base.Element
        public typealias Failure = Base.Failure

        /// The sequence whose elements are published.
        public let base: Base
        /// The executor the iterating task prefers; `nil` for the global executor.
        public let executorPreference: (any TaskExecutor)?

        /// Creates a publisher of `base`'s elements.
        ///
        /// - Parameters:
        ///   - base: The sequence to iterate, once per subscription.
        ///   - executorPreference: The executor the iterating task prefers (SE-0417).
        @inlinable
        public init(_ base: Base, executorPreference: (any TaskExecutor)? = nil) {
            self.base = base
            self.executorPreference = executorPreference
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = AsyncSequenceSubscription<Base, S>(
                base: base, downstream: subscriber,
                executorPreference: executorPreference)
            subscriber.receive(subscription: subscription)
        }
    }
}

@usableFromInline
final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    // @unchecked: stored vars are only touched under `lock`; `downstream` is called only by the
    // one iterating task, which is the only sender of signals.
    @usableFromInline let lock = Lock<Void>()
    @usableFromInline let base: Base
    @usableFromInline let executorPreference: (any TaskExecutor)?
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var started = false
    @usableFromInline @exclusivity(unchecked) var cancelled = false
    @usableFromInline @exclusivity(unchecked) var task: Task<Void, Never>?
    @usableFromInline @exclusivity(unchecked) var waiter: UnsafeContinuation<Bool, Never>?
    /// The task's body, made in `init` (specialised context; see `AsyncMapStorage.workerBody`).
    @usableFromInline @exclusivity(unchecked) var body: (() async -> Void)?

    @inlinable
    init(base: Base, downstream: Downstream, executorPreference: (any TaskExecutor)?) {
        self.base = base
        self.downstream = downstream
        self.executorPreference = executorPreference
        self.body = { await self.run() }
    }

    @usableFromInline var description: String { "AsyncSequence" }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        let (start, waiter) = lock.guarded { () -> ((() async -> Void)?, UnsafeContinuation<Bool, Never>?) in
            guard !cancelled else { return (nil, nil) }
            demand += more
            let waiter = self.waiter
            self.waiter = nil
            if started { return (nil, waiter) }
            started = true
            let body = self.body
            self.body = nil
            return (body, waiter)
        }
        waiter?.resume(returning: true)
        guard let body = start else { return }
        let task = Task(executorPreference: executorPreference) { await body() }
        let cancelNow = lock.guarded { () -> Bool in
            if cancelled { return true }
            self.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    @inlinable
    func cancel() {
        let (task, waiter) = lock.guarded { () -> (Task<Void, Never>?, UnsafeContinuation<Bool, Never>?) in
            guard !cancelled else { return (nil, nil) }
            cancelled = true
            downstream = nil
            body = nil
            let taken = (self.task, self.waiter)
            self.task = nil
            self.waiter = nil
            return taken
        }
        task?.cancel()
        waiter?.resume(returning: false)
    }

    /// Takes one unit of demand, waiting for it if there is none; `nil` once cancelled.
    @inlinable
    func awaitDemand() async -> Downstream? {
        while true {
            let (target, mustWait) = lock.guarded { () -> (Downstream?, Bool) in
                guard !cancelled, let downstream else { return (nil, false) }
                if demand > 0 {
                    demand -= 1
                    return (downstream, false)
                }
                return (nil, true)
            }
            guard mustWait else { return target }
            let keepGoing = await withUnsafeContinuation { (waiter: UnsafeContinuation<Bool, Never>) in
                let resumeNow = lock.guarded { () -> Bool? in
                    if cancelled { return false }
                    if demand > 0 { return true }
                    self.waiter = waiter
                    return nil
                }
                if let resumeNow { waiter.resume(returning: resumeNow) }
            }
            if !keepGoing { return nil }
        }
    }

    @inlinable
    func run() async {
        var iterator = base.makeAsyncIterator()
        while let target = await awaitDemand() {
            let element: Base.Element?
            do {
                element = try await iterator.next(isolation: nil)
            } catch {
                if let last = end() { last.receive(completion: .failure(error)) }
                return
            }
            guard let element else {
                if let last = end() { last.receive(completion: .finished) }
                return
            }
            if lock.guarded({ cancelled }) { return }  // C05: nothing after cancel
            let more = target.receive(element)
            if more > 0 { lock.guarded { demand += more } }
        }
    }

    /// Marks the end; returns the downstream unless the subscription was cancelled.
    @inlinable
    func end() -> Downstream? {
        lock.guarded {
            guard !cancelled else { return nil }
            cancelled = true
            let last = downstream
            downstream = nil
            task = nil
            body = nil
            return last
        }
    }
}
