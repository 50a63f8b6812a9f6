import Synchronization

extension Subscribers {
    /// A subscriber that requests unlimited values and hands each event to a closure.
    ///
    /// Cancelling it cancels the upstream subscription and releases both closures (and what they
    /// captured) at once, even while the `Sink` itself is still referenced.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        @usableFromInline let lock = Mutex<Void>(())
        @usableFromInline var receiveValueBody: ((Input) -> Void)?
        @usableFromInline var receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var status: Status = .awaitingSubscription

        @usableFromInline enum Status { case awaitingSubscription, subscribed, terminated }

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
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed
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
            let body = lock.guarded { status == .subscribed ? receiveValueBody : nil }
            body?(value)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            let body = lock.guarded { () -> ((Subscribers.Completion<Failure>) -> Void)? in
                guard status != .terminated else { return nil }
                status = .terminated
                let body = receiveCompletionBody
                receiveValueBody = nil
                receiveCompletionBody = nil
                upstream = nil
                return body
            }
            body?(completion)
        }

        public func cancel() {
            let subscription = lock.guarded { () -> (any Subscription)? in
                guard status != .terminated else { return nil }
                status = .terminated
                let subscription = upstream
                receiveValueBody = nil
                receiveCompletionBody = nil
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
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
