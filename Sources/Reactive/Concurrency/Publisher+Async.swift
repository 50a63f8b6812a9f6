/// Errors of the async bridges.
public enum AsyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `async()` was called on a publisher that finished without sending a value.
    case finishedWithoutValue

    public var description: String {
        switch self {
        case .finishedWithoutValue: return "the publisher finished without a value"
        }
    }
}

extension Publisher where Output: Sendable {
    /// Waits for this publisher's first value.
    ///
    /// Subscribes, asks for one value, and cancels the subscription once it arrives. The waiting
    /// is resumed exactly once, whatever races between the value, a completion and cancellation.
    ///
    /// ```swift
    /// let todo = try await api.fetchTodo(id: 1).async()
    /// ```
    /// - Returns: The first value.
    /// - Throws: The publisher's failure; `AsyncError.finishedWithoutValue` when it finishes
    ///   without a value; `CancellationError` when the calling task is cancelled (the subscription
    ///   is cancelled too).
    nonisolated(nonsending)
        public func async() async throws -> Output
    {
        let subscriber = FirstValueSubscriber<Output, Failure>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if subscriber.install(continuation) {
                    subscribe(subscriber)
                }
            }
        } onCancel: {
            subscriber.cancel()
        }
    }
}

/// Takes one value, then cancels. Its continuation is taken out of `state` under the lock before
/// it is resumed, so exactly one of value, completion and cancel resumes it.
@usableFromInline
final class FirstValueSubscriber<Input: Sendable, Failure: Error>: Subscriber, CustomStringConvertible,
    @unchecked Sendable
{
    // @unchecked: every stored var is read and written only under `lock`.
    @usableFromInline typealias Waiter = CheckedContinuation<Input, any Error>

    @usableFromInline enum State {
        case idle
        case waiting(Waiter)
        /// Cancelled before the continuation was installed.
        case cancelledEarly
        case done
    }

    @usableFromInline let lock = Lock<Void>()
    @usableFromInline @exclusivity(unchecked) var state = State.idle
    @usableFromInline @exclusivity(unchecked) var subscription: (any Subscription)?
    @usableFromInline @exclusivity(unchecked) var hadSubscription = false

    @inlinable init() {}

    @usableFromInline var description: String { "Async" }

    /// Installs the continuation; returns `false` (after resuming it) if the task was cancelled first.
    @inlinable
    func install(_ waiter: Waiter) -> Bool {
        let proceed = lock.guarded { () -> Bool in
            guard case .idle = state else { state = .done; return false }
            state = .waiting(waiter)
            return true
        }
        if !proceed { waiter.resume(throwing: CancellationError()) }
        return proceed
    }

    /// Ends the wait, returning the continuation to resume and the subscription to cancel.
    @inlinable
    func finish() -> (Waiter?, (any Subscription)?) {
        lock.guarded {
            let subscription = self.subscription
            self.subscription = nil
            switch state {
            case .waiting(let waiter):
                state = .done
                return (waiter, subscription)
            case .idle:
                state = .cancelledEarly
                return (nil, subscription)
            case .cancelledEarly, .done:
                return (nil, subscription)
            }
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.guarded { () -> Bool in
            guard !hadSubscription, case .waiting = state else { return false }
            hadSubscription = true
            self.subscription = subscription
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let (waiter, subscription) = finish()
        subscription?.cancel()
        waiter?.resume(returning: input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let (waiter, _) = finish()
        switch completion {
        case .finished: waiter?.resume(throwing: AsyncError.finishedWithoutValue)
        case .failure(let error): waiter?.resume(throwing: error)
        }
    }

    @inlinable
    func cancel() {
        let (waiter, subscription) = finish()
        subscription?.cancel()
        waiter?.resume(throwing: CancellationError())
    }
}
