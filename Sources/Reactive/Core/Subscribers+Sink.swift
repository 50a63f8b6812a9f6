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
        //
        // Values are delivered through `bodies`, one `SinkBodies` object holding both closures as
        // `let`s, held unmanaged: calling a closure kept in a `var` costs a retain and a release per
        // value (the call might replace it), calling a `let` of an object known to stay alive costs
        // nothing. The closures move into it at the first value, so a sink that never receives one
        // (subscribed, then cancelled) allocates nothing more. Only the completion drops them, and
        // if it arrives from inside the value closure (a publisher that delivers re-entrantly), the
        // drop waits until that closure has returned.
        //
        // No lock: `upstream` is owned by whoever moves `status` away from `subscribed` (a cancel
        // or the completion, whichever comes first), and is written before `status` becomes
        // `subscribed` (through the transient `subscribing`), so the atomic orders every access.
        @usableFromInline let status = Atomic<UInt8>(Status.awaitingSubscription)
        @usableFromInline @exclusivity(unchecked) var receiveValueBody: ((Input) -> Void)?
        @usableFromInline @exclusivity(unchecked) var receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
        /// The closures, once the first value has arrived (then the two above are nil).
        @usableFromInline @exclusivity(unchecked) var bodies: Unmanaged<SinkBodies<Input, Failure>>?
        /// A value closure is running: a completion meanwhile leaves dropping `bodies` to it.
        @usableFromInline @exclusivity(unchecked) var inValue = false
        @usableFromInline @exclusivity(unchecked) var dropAfterValue = false
        @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?

        @usableFromInline enum Status {
            @inlinable static var awaitingSubscription: UInt8 { 0 }
            @inlinable static var subscribed: UInt8 { 1 }
            @inlinable static var terminated: UInt8 { 2 }
            /// `upstream` is being stored; a cancel meanwhile leaves it to `receive(subscription:)`.
            @inlinable static var subscribing: UInt8 { 3 }
        }

        /// Creates a sink with a closure for the completion and one for each value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            receiveValueBody = receiveValue
            receiveCompletionBody = receiveCompletion
        }

        deinit {
            bodies?.release()
        }

        public var description: String { "Sink" }

        public func receive(subscription: any Subscription) {
            guard status.compareExchange(expected: Status.awaitingSubscription, desired: Status.subscribing, ordering: .acquiringAndReleasing).exchanged
            else {
                subscription.cancel()
                return
            }
            upstream = subscription
            guard status.compareExchange(expected: Status.subscribing, desired: Status.subscribed, ordering: .acquiringAndReleasing).exchanged
            else {
                // Cancelled while storing it: the cancel left the subscription to us.
                upstream = nil
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if status.load(ordering: .acquiring) == Status.subscribed, let bodies = bodies ?? boxBodies() {
                inValue = true
                bodies._withUnsafeGuaranteedRef { $0.receiveValue(value) }
                inValue = false
                if dropAfterValue { dropBodies() }
            }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(Status.terminated, ordering: .acquiringAndReleasing)
            // Only the winner of `status` owns `upstream` (a racing cancel may be reading it).
            if previous == Status.subscribed { _ = upstream.take() }
            if previous == Status.subscribed {
                // A completion re-entering from inside this call (or from a deinit the call
                // triggers) must not free the closure that is running: it leaves the drop to us.
                let outerInValue = inValue
                inValue = true
                if let bodies {
                    bodies._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
                } else if let body = receiveCompletionBody {
                    body(completion)
                }
                inValue = outerInValue
            }
            if inValue { dropAfterValue = true } else { dropBodies() }
        }

        /// Moves the closures into `bodies` (at the first value); nil once they were dropped.
        /// Not inlinable on purpose: unspecialised, it moves each closure as stored, where a
        /// specialised copy would wrap it in two reabstraction thunks (two more calls per value).
        @usableFromInline
        func boxBodies() -> Unmanaged<SinkBodies<Input, Failure>>? {
            guard let receiveValue = receiveValueBody.take(), let receiveCompletion = receiveCompletionBody.take() else { return nil }
            let boxed = Unmanaged.passRetained(SinkBodies(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
            bodies = boxed
            return boxed
        }

        /// Releases the closures (and what they captured).
        @usableFromInline
        func dropBodies() {
            // Everything is moved out first and released last: releasing a closure can run a
            // captured object's deinit, which may call back into this sink (a second completion).
            dropAfterValue = false
            let value = receiveValueBody.take()
            let completion = receiveCompletionBody.take()
            let taken = bodies.take()
            withExtendedLifetime((value, completion)) {}
            taken?.release()
        }

        public func cancel() {
            let previous = status.exchange(Status.terminated, ordering: .acquiringAndReleasing)
            // `subscribing`: `receive(subscription:)` sees the cancel and cancels the subscription.
            guard previous == Status.subscribed else { return }
            upstream.take()?.cancel()
        }
    }
}

/// A `Sink`'s two closures, as `let`s (see `Sink`).
@usableFromInline
final class SinkBodies<Input, Failure: Error> {
    @usableFromInline let receiveValue: (Input) -> Void
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(receiveValue: @escaping (Input) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
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
