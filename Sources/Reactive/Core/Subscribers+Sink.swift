import Synchronization

extension Subscribers {
    /// A subscriber that requests unlimited values and hands each event to a closure.
    ///
    /// Cancelling it cancels the upstream subscription and releases both closures (and what they
    /// captured) at once, even while the `Sink` itself is still referenced.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        // Values and the completion arrive serially (the subscriber contract), so the closures are
        // read without the lock on that path; only the status word is shared with `cancel()`, which
        // may come from any thread. The completion releases the closures; a cancel releases the
        // upstream at once and the closures when the `AnyCancellable` lets go of the sink (a cancel
        // may race with a value in flight on another thread, so it must not free what that value
        // is about to call).
        @usableFromInline let status = Atomic<UInt8>(Status.awaitingSubscription)
        @usableFromInline let lock = Lock()
        @usableFromInline var receiveValueBody: ((Input) -> Void)?
        @usableFromInline var receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
        @usableFromInline var upstream: (any Subscription)?

        @usableFromInline enum Status {
            @inlinable static var awaitingSubscription: UInt8 { 0 }
            @inlinable static var subscribed: UInt8 { 1 }
            @inlinable static var terminated: UInt8 { 2 }
        }

        /// Creates a sink with a closure for the completion and one for each value.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            receiveValueBody = receiveValue
            receiveCompletionBody = receiveCompletion
        }

        public var description: String { "Sink" }

        public func receive(subscription: any Subscription) {
            let accepted = lock.guarded { () -> Bool in
                guard status.compareExchange(expected: Status.awaitingSubscription, desired: Status.subscribed, ordering: .acquiringAndReleasing).exchanged
                else { return false }
                upstream = subscription
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if status.load(ordering: .acquiring) == Status.subscribed {
                receiveValueBody?(value)
            }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(Status.terminated, ordering: .acquiringAndReleasing)
            lock.guarded { upstream = nil }
            let body = receiveCompletionBody
            receiveValueBody = nil
            receiveCompletionBody = nil
            if previous == Status.subscribed { body?(completion) }
        }

        public func cancel() {
            guard status.exchange(Status.terminated, ordering: .acquiringAndReleasing) != Status.terminated else { return }
            let subscription = lock.guarded { () -> (any Subscription)? in
                let subscription = upstream
                upstream = nil
                return subscription
            }
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Subscribes with closures for values and for the completion, requesting unlimited values.
    ///
    /// - Parameters:
    ///   - receiveCompletion: Called once when the publisher finishes or fails.
    ///   - receiveValue: Called with every value.
    /// - Returns: A cancellable that cancels the subscription when cancelled or deinitialised.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a closure for values; this publisher cannot fail.
    ///
    /// ```swift
    /// let c = Just(1).sink { print($0) }
    /// ```
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
