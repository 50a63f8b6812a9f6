extension Publisher where Failure == Never, Output: Sendable {
    /// This publisher's values as an `AsyncSequence`.
    ///
    /// Demand follows the consumer: each `next()` requests exactly one value (`.max(1)`) and
    /// nothing is buffered beyond it (no buffer: a value sent without demand, by a subject for
    /// instance, is the publisher's to drop). Leaving the loop (the iterator is released) or
    /// cancelling the consuming task cancels the subscription and `next()` returns `nil`; after
    /// the publisher finishes, `next()` returns `nil` forever.
    ///
    /// ```swift
    /// for await value in [1, 2, 3].publisher.values { print(value) }
    /// ```
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher where Output: Sendable {
    /// This publisher's values as a throwing `AsyncSequence`.
    ///
    /// As `values` for a publisher that cannot fail: one value requested per `next()`; leaving
    /// the loop or cancelling the task cancels the subscription and ends the loop with `nil`
    /// (like `AsyncThrowingStream`, cancellation is not thrown). A failure is thrown once, after
    /// the values before it; `next()` then returns `nil` forever.
    ///
    /// ```swift
    /// for try await user in userPublisher.values { print(user) }
    /// ```
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that cannot fail, seen as an `AsyncSequence`; one value is requested per `next()`.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never, P.Output: Sendable {
    public typealias Element = P.Output
    public typealias Failure = Never

    /// The publisher whose values are iterated.
    public let publisher: P

    /// Wraps `publisher`; each iterator made from it subscribes once.
    @inlinable
    public init(_ publisher: P) { self.publisher = publisher }

    /// Iterates by requesting one value per `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output
        public typealias Failure = Never

        @usableFromInline let owner: AsyncValuesOwner<P.Output, Never>

        @inlinable
        init(owner: AsyncValuesOwner<P.Output, Never>) { self.owner = owner }

        /// The next value, or `nil` once the publisher finished or the task was cancelled.
        @inlinable
        public mutating func next() async -> P.Output? {
            switch await owner.subscriber.next() {
            case .success(let value): return value
            }
        }
    }

    /// Subscribes to the publisher and returns the iterator that drives the subscription.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let subscriber = AsyncValuesSubscriber<P.Output, Never>()
        publisher.subscribe(subscriber)
        return Iterator(owner: AsyncValuesOwner(subscriber))
    }
}

/// A publisher seen as a throwing `AsyncSequence`; one value is requested per `next()`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence where P.Output: Sendable {
    public typealias Element = P.Output
    public typealias Failure = P.Failure

    /// The publisher whose values are iterated.
    public let publisher: P

    /// Wraps `publisher`; each iterator made from it subscribes once.
    @inlinable
    public init(_ publisher: P) { self.publisher = publisher }

    /// Iterates by requesting one value per `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = P.Output
        public typealias Failure = P.Failure

        @usableFromInline let owner: AsyncValuesOwner<P.Output, P.Failure>

        @inlinable
        init(owner: AsyncValuesOwner<P.Output, P.Failure>) { self.owner = owner }

        /// The next value; `nil` once the publisher finished, failed (after throwing once) or the
        /// task was cancelled.
        @inlinable
        public mutating func next() async throws(P.Failure) -> P.Output? {
            try await owner.subscriber.next().get()
        }
    }

    /// Subscribes to the publisher and returns the iterator that drives the subscription.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let subscriber = AsyncValuesSubscriber<P.Output, P.Failure>()
        publisher.subscribe(subscriber)
        return Iterator(owner: AsyncValuesOwner(subscriber))
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}
extension AsyncThrowingPublisher: Sendable where P: Sendable {}

/// Owned only by an iterator (and its copies): releasing the last one leaves the loop, so the
/// subscription is cancelled. The publisher keeps the subscriber, not this owner.
@usableFromInline
final class AsyncValuesOwner<Output: Sendable, Failure: Error>: Sendable {
    @usableFromInline let subscriber: AsyncValuesSubscriber<Output, Failure>
    @inlinable init(_ subscriber: AsyncValuesSubscriber<Output, Failure>) { self.subscriber = subscriber }
    deinit { subscriber.cancel() }
}

/// The subscriber behind `values`: one value requested per `next()`.
///
/// `next()` requests one value before it suspends: a synchronous publisher delivers it inside
/// `request`, so the value is returned without suspending at all. Copies of an iterator share
/// this subscriber, so several `next()` calls may wait at once (as in Combine, each is served):
/// waiters and values are matched first come, first served, and every waiter is resumed exactly
/// once, by a value, the completion or a cancel.
///
/// Whatever the publisher does, no `next()` waits forever (C07), and events before the
/// subscription are taken as Combine's bridge takes them: a value is dropped and every waiting
/// `next()` returns `nil` (their demand stays, so the later subscription is asked for it all),
/// `.finished` ends the loop, a failure is thrown. The subscriber is `Cancellable`, as Combine's
/// is, so a publisher that cancels it ends the loop too.
@usableFromInline
final class AsyncValuesSubscriber<Input: Sendable, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    // @unchecked: every stored var is read and written only under `lock`.
    @usableFromInline typealias Waiter = UnsafeContinuation<Result<Input?, Failure>, Never>

    @usableFromInline enum Status {
        case awaitingSubscription
        case subscribed
        /// The publisher completed; the completion is reported after a value still held.
        case completed(Subscribers.Completion<Failure>)
        /// Nothing more: `next()` returns `nil`.
        case done
    }

    @usableFromInline let lock = Lock<Void>()
    @usableFromInline @exclusivity(unchecked) var status = Status.awaitingSubscription
    @usableFromInline @exclusivity(unchecked) var subscription: (any Subscription)?
    /// Values received for a `next()` that has not suspended yet, oldest first.
    @usableFromInline @exclusivity(unchecked) var held = SmallQueue<Input>()
    /// Suspended `next()` calls, oldest first.
    @usableFromInline @exclusivity(unchecked) var waiters = SmallQueue<Waiter>()
    /// Values requested and not yet received.
    @usableFromInline @exclusivity(unchecked) var outstanding = 0

    @inlinable init() {}

    @usableFromInline var description: String { "Values" }

    @usableFromInline enum Step {
        case result(Result<Input?, Failure>)
        case request(any Subscription)
        case wait
    }

    /// Under the lock: what `next()` can answer now, or what it must do first.
    @inlinable
    func poll(mayRequest: Bool) -> Step {
        if let value = held.removeFirst() {
            return .result(.success(value))
        }
        switch status {
        case .done:
            return .result(.success(nil))
        case .completed(.finished):
            status = .done
            return .result(.success(nil))
        case .completed(.failure(let error)):
            status = .done
            return .result(.failure(error))
        case .awaitingSubscription:
            if mayRequest { outstanding += 1 }  // requested when the subscription arrives
            return .wait
        case .subscribed:
            guard mayRequest, let subscription else { return .wait }
            outstanding += 1
            return .request(subscription)
        }
    }

    @inlinable
    func next() async -> Result<Input?, Failure> {
        if Task.isCancelled {
            cancel()
            return .success(nil)
        }
        switch lock.guarded({ poll(mayRequest: true) }) {
        case .result(let result):
            return result
        case .request(let subscription):
            subscription.request(.max(1))
            if case .result(let result) = lock.guarded({ poll(mayRequest: false) }) { return result }
        case .wait:
            break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: Waiter) in
                let ready = lock.guarded { () -> Result<Input?, Failure>? in
                    if case .result(let result) = poll(mayRequest: false) { return result }
                    waiters.append(waiter)
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let (accepted, request) = lock.guarded { () -> (Bool, Int) in
            guard case .awaitingSubscription = status else { return (false, 0) }
            status = .subscribed
            self.subscription = subscription
            return (true, outstanding)
        }
        if !accepted {
            subscription.cancel()
        } else if request > 0 {
            subscription.request(.max(request))
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let (waiter, early) = lock.guarded { () -> (Waiter?, [Waiter]) in
            switch status {
            case .subscribed:
                guard outstanding > 0 else { return (nil, []) }  // beyond demand: dropped
            case .awaitingSubscription:
                // Before the subscription (misuse): as Combine's bridge, drop the value and end
                // every waiting `next()` with nil; their demand is still asked of the subscription.
                return (nil, waiters.removeAll())
            case .completed, .done:
                return (nil, [])
            }
            outstanding -= 1
            if let waiter = waiters.removeFirst() { return (waiter, []) }
            held.append(input)
            return (nil, [])
        }
        waiter?.resume(returning: .success(input))
        for waiter in early { waiter.resume(returning: .success(nil)) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let waiting = lock.guarded { () -> [Waiter] in
            // Before the subscription too (Combine's bridge ends the loop then, so no `next()` waits).
            switch status {
            case .subscribed, .awaitingSubscription: break
            case .completed, .done: return []
            }
            subscription = nil
            if waiters.isEmpty {
                status = .completed(completion)
                return []
            }
            // Nothing is held while someone waits: the first waiter gets the completion, the
            // others `nil`, as later calls would.
            status = .done
            return waiters.removeAll()
        }
        for (index, waiter) in waiting.enumerated() {
            switch completion {
            case .failure(let error) where index == 0: waiter.resume(returning: .failure(error))
            default: waiter.resume(returning: .success(nil))
            }
        }
    }

    /// Cancels the subscription; every waiting `next()` returns `nil`.
    @inlinable
    func cancel() {
        let (waiting, subscription, dropped) = lock.guarded { () -> ([Waiter], (any Subscription)?, [Input]) in
            if case .done = status, self.subscription == nil, waiters.isEmpty, held.isEmpty { return ([], nil, []) }
            status = .done
            let taken = (waiters.removeAll(), self.subscription, held.removeAll())
            self.subscription = nil
            return taken
        }
        subscription?.cancel()
        withExtendedLifetime(dropped) {}  // released after the lock
        for waiter in waiting { waiter.resume(returning: .success(nil)) }
    }
}

/// A first-in, first-out queue that keeps its first element inline: `values` holds at most one
/// value and one waiter at a time unless several `next()` calls overlap, so the common case
/// touches no array.
@usableFromInline
struct SmallQueue<Element> {
    /// The oldest element; nil only when the queue is empty.
    @usableFromInline var head: Element?
    @usableFromInline var rest: [Element] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == nil }

    @inlinable
    mutating func append(_ element: Element) {
        if head == nil {
            head = element
        } else {
            rest.append(element)
        }
    }

    @inlinable
    mutating func removeFirst() -> Element? {
        guard let first = head else { return nil }
        head = rest.isEmpty ? nil : rest.removeFirst()
        return first
    }

    /// Empties the queue and returns its elements, oldest first.
    @inlinable
    mutating func removeAll() -> [Element] {
        guard let first = head else { return [] }
        let all = [first] + rest
        head = nil
        rest = []
        return all
    }
}
