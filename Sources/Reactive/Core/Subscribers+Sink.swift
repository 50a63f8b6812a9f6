import Synchronization

extension Subscribers {
    /// A subscriber that requests unlimited values and hands each event to a closure.
    ///
    /// Cancelling it cancels the upstream subscription and releases both closures (and what they
    /// captured) at once, even while the `Sink` itself is still referenced. As in Combine, a
    /// `cancel()` before any subscription keeps the closures (until the sink is freed), and a
    /// completion before any subscription is delivered and releases them. A subscription that
    /// arrives after a cancel is cancelled (Combine would take it).
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        // Values and the completion arrive serially (the subscriber contract), so the closures are
        // read without a lock on that path; only the status word is shared with `cancel()`, which
        // may come from any thread. The completion releases the closures after calling one; a
        // cancel releases the upstream and the closures at once (C16), unless a value closure is
        // running, in which case the value path releases them when that closure returns.
        //
        // Values are delivered through `bodies`, one `SinkBodies` object holding both closures as
        // `let`s, held unmanaged: calling a closure kept in a `var` costs a retain and a release per
        // value (the call might replace it), calling a `let` of an object known to stay alive costs
        // nothing. The closures move into it at the first value, so a sink that never receives one
        // (subscribed, then cancelled) allocates nothing more. They wait in `closures`, one struct
        // (`SinkClosures`) that `SinkBodies` keeps as is: moving each closure out of an optional of
        // its own reabstracts it (in this unspecialised code: a thunk with a 56-byte context, four
        // mallocs per sink at its first value, and two more calls per value).
        //
        // A cancel racing a value on another thread is settled by `delivering` (0: idle; 1: a value
        // is being delivered; 2: and a cancel or completion left the release to it). The value path
        // stores 1 (sequentially consistent) before it looks at `status` again and touches the
        // closures; the cancel moves `status` first and then 1 to 2, or, finding 0, releases the
        // closures itself: the total order of those accesses means that either the value sees the
        // cancel and calls nothing, or the cancel sees the value and leaves the release to it. The
        // value path leaves with an exchange back to 0, which returns the 2 of a cancel that came
        // at any moment before it: a plain load and store there lost a cancel landing between the
        // two, and left the closures to the sink's deinit (C16).
        //
        // A source that takes the release over (`ReleaseHandOff.swift`: a sequence or a subject,
        // through `map`, `filter`, `compactMap` and the per-value operators) says so at subscription, through
        // `receive(subscription:handOff:)`: then no value is announced (`handsOff`), and a cancel
        // that wins `status` hands the sink to the source's `cancel(releasing:)`, which calls
        // `releaseAfterCancel()` once nothing calls the sink any more.
        //
        // No lock: `upstream` is owned by whoever moves `status` away from `subscribed` (a cancel
        // or the completion, whichever comes first), and is written before `status` becomes
        // `subscribed` (through the transient `subscribing`), so the atomic orders every access.
        // The closures belong to the delivering thread while `delivering` is 1 and otherwise to
        // whoever wins `status`.
        @usableFromInline let status = Atomic<UInt8>(Status.awaitingSubscription)
        @usableFromInline let delivering = Atomic<UInt8>(0)
        /// A value closure is running on the delivering thread (for a publisher that delivers
        /// re-entrantly: only the outermost value sets and clears `delivering`). Next to the two
        /// atomics, so the sink's flags share a word (the layout follows the declarations).
        @usableFromInline @exclusivity(unchecked) var inValue = false
        /// The upstream takes the release over after a cancel (see the top): values are not
        /// announced in `delivering`. Written before `status` becomes `subscribed`.
        @usableFromInline @exclusivity(unchecked) var handsOff = false
        /// The closures until the first value arrives (then they move into `bodies`).
        @usableFromInline @exclusivity(unchecked) var closures: SinkClosures<Input, Failure>?
        /// The closures, once the first value has arrived (then `closures` is nil).
        @usableFromInline @exclusivity(unchecked) var bodies: Unmanaged<SinkBodies<Input, Failure>>?
        @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?
        /// The source that takes the release over, in place of `upstream` (see the top); owned as
        /// `upstream` is.
        @usableFromInline @exclusivity(unchecked) var handOff: (any ReleaseHandOffSource)?

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
            closures = SinkClosures(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
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

        /// `receive(subscription:)` from a source that takes the release after a cancel over
        /// (see the top): `handOff` is kept in place of the subscription.
        @usableFromInline
        func receive(subscription: any Subscription, handOff source: any ReleaseHandOffSource) {
            guard status.compareExchange(expected: Status.awaitingSubscription, desired: Status.subscribing, ordering: .acquiringAndReleasing).exchanged
            else {
                subscription.cancel()
                return
            }
            handOff = source
            handsOff = true
            guard status.compareExchange(expected: Status.subscribing, desired: Status.subscribed, ordering: .acquiringAndReleasing).exchanged
            else {
                // Cancelled while storing it: the cancel left the subscription to us, and as no
                // value has been requested, none is on its way.
                handOff = nil
                handsOff = false
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        /// Specialised but never inlined: small since its announcing path went out of line, it
        /// was inlined into a sequence's emitting loop, which then ran 2.5 times slower with
        /// fewer instructions (`sequence-map`, `step-engine`'s collect; 2026-12-04).
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            guard status.load(ordering: .acquiring) == Status.subscribed else { return .none }
            guard handsOff else { return receiveAnnounced(value) }
            // Nothing releases the closures while the upstream calls this (see the top), and
            // nothing calls it again before it returns: the source is a sequence, which never
            // delivers from inside its downstream's calls (C20), or a subject's conduit, which
            // queues a value sent from inside them (C22), through relays that call on only from
            // inside their upstream's calls; so neither `inValue` nor `delivering` is needed.
            if let bodies = bodies ?? boxBodies() {
                bodies._withUnsafeGuaranteedRef { $0.closures.receiveValue(value) }
            }
            return .none
        }

        /// `receive(_:)` from a source that leaves the release after a cancel to the sink: the value
        /// is announced in `delivering` (see the top). Out of line, so the hand-off path above
        /// saves no registers for it.
        @inlinable
        @inline(never)
        func receiveAnnounced(_ value: Input) -> Subscribers.Demand {
            if inValue {
                // Delivered from inside our own value closure: that call keeps the closures alive.
                if let bodies { bodies._withUnsafeGuaranteedRef { $0.closures.receiveValue(value) } }
                return .none
            }
            delivering.store(1, ordering: .sequentiallyConsistent)
            if status.load(ordering: .sequentiallyConsistent) == Status.subscribed, let bodies = bodies ?? boxBodies() {
                inValue = true
                bodies._withUnsafeGuaranteedRef { $0.closures.receiveValue(value) }
                inValue = false
            }
            // One exchange: a cancel may come between a load and a store (see the top).
            if delivering.exchange(0, ordering: .acquiringAndReleasing) == 2 {
                dropBodies()
            }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(Status.terminated, ordering: .sequentiallyConsistent)
            // Only the winner of `status` owns `upstream` and the closures (a cancel that lost
            // does nothing more).
            // A completion before any subscription ends the sink as one after it does, as in
            // Combine, where `prefix(untilOutputFrom:)` sends one when its trigger fires first.
            guard previous == Status.subscribed || previous == Status.awaitingSubscription else { return }
            _ = upstream.take()
            _ = handOff.take()
            if let bodies {
                bodies._withUnsafeGuaranteedRef { $0.closures.receiveCompletion(completion) }
            } else if let closures {
                closures.receiveCompletion(completion)
            }
            // Inside a value closure (a publisher that completes re-entrantly), that closure is
            // still running: its return releases them.
            if inValue {
                delivering.store(2, ordering: .relaxed)
            } else {
                dropBodies()
            }
        }

        /// Moves the closures into `bodies` (at the first value); nil once they were dropped.
        /// Not inlinable on purpose: unspecialised, it moves each closure as stored, where a
        /// specialised copy would wrap it in two reabstraction thunks (two more calls per value).
        @usableFromInline
        func boxBodies() -> Unmanaged<SinkBodies<Input, Failure>>? {
            guard let taken = closures else { return nil }
            closures = nil
            let boxed = Unmanaged.passRetained(SinkBodies(closures: taken))
            bodies = boxed
            return boxed
        }

        /// Releases the closures (and what they captured).
        @usableFromInline
        func dropBodies() {
            // Everything is moved out first and released last: releasing a closure can run a
            // captured object's deinit, which may call back into this sink (a second completion).
            // No generic helper such as `Optional.take()`: this is not specialised, and metadata
            // for these closure types costs a lookup. An assignment stores before it releases.
            let taken = bodies
            bodies = nil
            closures = nil
            taken?.release()
        }

        public func cancel() {
            let previous = status.exchange(Status.terminated, ordering: .sequentiallyConsistent)
            guard previous != Status.terminated else { return }
            // Before any subscription the closures stay, as in Combine, where such a cancel does
            // nothing. Unlike Combine, a subscription that comes later is cancelled: taking it would
            // run an upstream for ever after its subscriber was cancelled (a leak).
            if previous == Status.awaitingSubscription { return }
            // `subscribing`: `receive(subscription:)` sees the cancel and cancels the subscription.
            if previous == Status.subscribed {
                if handsOff, let source = handOff.take() {
                    // It calls `releaseAfterCancel()` once no value is being delivered.
                    return source.cancel(releasing: self)
                }
                upstream.take()?.cancel()
            }
            // A value closure running (on this thread, re-entrantly, or on another) keeps the
            // closures until it returns, and its return releases them.
            if delivering.compareExchange(expected: 1, desired: 2, ordering: .sequentiallyConsistent).exchanged { return }
            dropBodies()
        }
    }
}

/// Its closures run inside its own `receive` (see `ReleaseHandOff.swift`).
extension Subscribers.Sink: ReleaseHandOffRelay {}

extension Subscribers.Sink: ReleaseAfterCancel {
    @usableFromInline
    func releaseAfterCancel() {
        dropBodies()
    }
}

/// A `Sink`'s two closures, moved as one value (see `Sink`).
@usableFromInline
struct SinkClosures<Input, Failure: Error> {
    @usableFromInline let receiveValue: (Input) -> Void
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(receiveValue: @escaping (Input) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }
}

/// A `Sink`'s two closures, as a `let` of an object that stays alive while a value is delivered
/// (see `Sink`).
@usableFromInline
final class SinkBodies<Input, Failure: Error> {
    @usableFromInline let closures: SinkClosures<Input, Failure>

    @usableFromInline
    init(closures: SinkClosures<Input, Failure>) {
        self.closures = closures
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
