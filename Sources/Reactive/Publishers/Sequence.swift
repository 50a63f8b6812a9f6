import Synchronization

extension Publishers {
    /// Publishes the elements of a sequence, lazily, as demand arrives, then finishes.
    ///
    /// ```swift
    /// (1...3).publisher.sink { print($0) }   // 1 2 3
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence whose elements are published.
        public let sequence: Elements

        /// Creates a publisher of `sequence`'s elements.
        @inlinable
        public init(sequence: Elements) { self.sequence = sequence }

        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard var first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            // An inner of `flatMap` or `merge` takes the elements it can deliver at once itself
            // (`SequenceFusionBase`); the rest, if any, goes through a subscription as usual.
            if let fusing = subscriber as? SequenceFusionBase<Output, Failure> {
                guard let rest = fusing.fuse(first, &iterator) else { return }
                first = rest
            }
            let subscription = SequenceSubscription(downstream: subscriber, iterator: iterator, first: first, sequence: sequence)
            // Through subscribers that call on only from inside its calls, the subscription takes a
            // cancelled sink's release over (`ReleaseHandOff.swift`). The cast folds away once the
            // subscriber's type is known.
            handSubscription(subscription, handOff: subscription, to: subscriber)
        }
    }
}

/// The superclass of a subscriber that can take a sequence's elements without a subscription: a
/// merge engine's inner (`MergeEngine.Inner`), for `flatMap { [$0].publisher }` and
/// `merge` of sequences. What RxJava calls synchronous fusion, and `Just`'s scalar fusion in
/// `flatMap` generalised: no `SequenceSubscription` and cursor to make and free, and no request,
/// subscribe or finish round trips through two locks, for elements the engine can deliver at once.
///
/// A class and not a protocol for the reason `StepFusionBase` gives: the cast folds away once the
/// subscriber's type is known, and the call is then specialised.
@usableFromInline
class SequenceFusionBase<Input, Failure: Error> {
    @inlinable init() {}

    /// Delivers `first` and then the iterator's elements, each only if it can go downstream at
    /// once, exactly as a subscription would have sent them (the next element is taken from the
    /// iterator before the current one is sent), and finishes when the iterator runs out.
    /// Returns the element it could not deliver at once, with `iterator` just after it, for the
    /// caller to subscribe with; `nil` when nothing is left to send (all sent and finished, or
    /// the subscriber ended meanwhile).
    @inlinable
    func fuse<I: IteratorProtocol>(_ first: Input, _ iterator: inout I) -> Input? where I.Element == Input {
        first
    }
}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Swift.Sequence {
    /// A publisher of this sequence's elements that cannot fail.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}

/// Emits a sequence on demand. One thread at a time is the *emitter* (`emitting == true`); it owns
/// the cursor (the downstream, the iterator and the next element) and works on it without the
/// lock. Others only add demand or cancel, and the emitter picks that up; so `request` from inside
/// `receive` never recurses (C20).
///
/// No stored property has a generic `Optional` type: the deinit of a generic class is never
/// specialised, and destroying an `Optional<Downstream>` or `Optional<Element>` there made the
/// runtime look up that type's metadata in its caches (about a quarter of a one-element
/// subscription, `flatMap { [$0].publisher }`). A class reference's optional needs no metadata.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription, CustomStringConvertible
where Downstream.Input == Iterator.Element {
    @usableFromInline typealias Cursor = SequenceCursor<Downstream, Iterator>

    /// In place, not a `Lock`: one object less per subscription (`flatMap { [$0].publisher }`
    /// makes one per value).
    @usableFromInline let lockWord = LockWord()
    @usableFromInline let cancelled = Atomic<Bool>(false)
    /// `nil` once finished or cancelled (and no emitter holds it). Read by the emitter without the
    /// lock; set to `nil` under the lock, and released after it is dropped.
    @usableFromInline @exclusivity(unchecked) var cursor: Cursor?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var emitting = false
    /// A sink cancelled (`cancel(releasing:)`) while the emitter was delivering: the emitter calls
    /// its `releaseAfterCancel()` when it stops (`ReleaseHandOff.swift`). Under the lock.
    @usableFromInline @exclusivity(unchecked) var pendingRelease: (any ReleaseAfterCancel)?
    /// `handleRequest`, captured where the types are concrete. `request` is reached through `any
    /// Subscription`, whose witness is the unspecialised generic code (generic metadata lookups on
    /// every call); calling through this closure runs the whole request, lock and per-element
    /// loop included, in the specialised copy (10-50x faster across modules for the loop; the
    /// `values` benchmark, one value per request, went from ~320 to ~135 ns per element).
    @usableFromInline let specializedRequest: (SequenceSubscription, Subscribers.Demand) -> Void
    /// The sequence itself, for `description` (`print` shows it). An existential and not a
    /// closure capturing it: an array or a range fits in place, so nothing is allocated for it.
    @usableFromInline let sequence: Any

    @inlinable
    init(downstream: Downstream, iterator: Iterator, first: Iterator.Element, sequence: Any) {
        self.cursor = Cursor(downstream: downstream, iterator: iterator, next: first)
        self.sequence = sequence
        self.specializedRequest = { $0.handleRequest($1) }
    }

    @inlinable
    @inline(__always)
    func locked<R>(_ body: () -> R) -> R { lockWord.guarded(ObjectIdentifier(self), body) }

    /// As Combine's: the sequence itself while the subscription is live, so
    /// `[1, 2, 3].publisher.print()` writes `receive subscription: ([1, 2, 3])`, and "Sequence"
    /// once it finished or was cancelled.
    @usableFromInline var description: String {
        let live = locked { cursor != nil } && !cancelled.load(ordering: .acquiring)
        return live ? String(describing: sequence) : "Sequence"
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        specializedRequest(self, more)
    }

    @inlinable
    func handleRequest(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        // Becoming the emitter and taking the demand are one critical section.
        let budget = locked { () -> Subscribers.Demand in
            guard cursor != nil else { return .none }
            demand += more
            if emitting { return .none }
            emitting = true
            let taken = demand
            demand = .none
            return taken
        }
        if budget != .none { emit(budget: budget) }
    }

    /// Runs as the emitter (`emitting == true`) with `budget` already taken from `demand`.
    @inlinable
    func emit(budget initial: Subscribers.Demand) {
        if initial.isUnlimited { return emitUnlimited() }
        var budget = initial
        // Only the emitter touches the cursor outside the lock; it works on local copies of the
        // iterator and the next element (no exclusivity checks per element) and writes them back
        // when it stops.
        guard let cursor else { return release() }
        let downstream = cursor.downstream
        var iterator = cursor.iterator
        var next = cursor.next
        while true {
            if budget == .none {
                // Write the cursor back before the lock can hand emitting to another thread.
                cursor.iterator = iterator
                cursor.next = next
                budget = refill()
                if budget == .none { return }
            }
            if cancelled.load(ordering: .acquiring) { break }
            let element = next
            guard let following = iterator.next() else {
                _ = downstream.receive(element)
                finish()
                return
            }
            next = following
            let more = downstream.receive(element)
            if !budget.isUnlimited { budget = budget - 1 + more }
        }
        release()
    }

    /// `emit(budget:)` with an unlimited budget (a `sink`'s): it never runs out, so the loop
    /// keeps no count, ignores the demand each value returns and never refills; it stops at the
    /// end or at a cancel, as `emit` does. The downstream's demand arithmetic, dropped from the
    /// loop, was about a tenth of `trychain`'s instructions per value. Out of line, so the
    /// counted loop in `emit` keeps its registers.
    @inlinable
    @inline(never)
    func emitUnlimited() {
        guard let cursor else { return release() }
        let downstream = cursor.downstream
        var iterator = cursor.iterator
        var next = cursor.next
        while !cancelled.load(ordering: .acquiring) {
            let element = next
            guard let following = iterator.next() else {
                _ = downstream.receive(element)
                finish()
                return
            }
            next = following
            _ = downstream.receive(element)
        }
        release()
    }

    /// The emitter's budget ran out: takes the demand added meanwhile, or stops (as the emitter,
    /// and, after a cancel, releasing what the cancel left to it). Out of line, as the exits
    /// below: inlined into the loop, it kept more values in registers across every element.
    @inlinable
    @inline(never)
    func refill() -> Subscribers.Demand {
        var dropped: Cursor?
        var waiting: (any ReleaseAfterCancel)?
        let budget = locked { () -> Subscribers.Demand in
            let taken = demand
            demand = .none
            if cancelled.load(ordering: .relaxed) {
                // A cancel that saw `emitting == true` left the release to us.
                emitting = false
                dropped = self.cursor.take()
                waiting = pendingRelease.take()
                return .none
            }
            if taken == .none { emitting = false }
            return taken
        }
        // Released after the lock: the downstream's deinit may call back (C23).
        withExtendedLifetime(dropped) {}
        waiting?.releaseAfterCancel()
        return budget
    }

    // The emitter's exits are out of line: they run once per subscription, and inlined into the
    // loop they cost every element a few instructions.
    @inlinable
    @inline(never)
    func finish() {
        let taken = locked { () -> (Cursor?, Bool, (any ReleaseAfterCancel)?) in
            emitting = false
            return (cursor.take(), cancelled.load(ordering: .relaxed), pendingRelease.take())
        }
        if let waiting = taken.2 {
            // Cancelled during the last value: no completion, and the sink may let go now.
            withExtendedLifetime(taken.0) {}
            return waiting.releaseAfterCancel()
        }
        guard let cursor = taken.0, !taken.1 else { return }
        cursor.downstream.receive(completion: .finished)
    }

    @inlinable
    @inline(never)
    func release() {
        let taken = locked { () -> (Cursor?, (any ReleaseAfterCancel)?) in
            emitting = false
            return (cursor.take(), pendingRelease.take())
        }
        withExtendedLifetime(taken.0) {}
        taken.1?.releaseAfterCancel()
    }

    @inlinable
    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = locked { () -> Cursor? in
            emitting ? nil : cursor.take()
        }
        withExtendedLifetime(taken) {}
    }
}

extension SequenceSubscription: ReleaseHandOffSource {
    /// The emitter is the only thread that calls the downstream, so a release waits for it when
    /// there is one (`ReleaseHandOff.swift`): it sees `cancelled` before its next element and
    /// calls `releaseAfterCancel()` as it stops.
    @usableFromInline
    func cancel(releasing subscriber: any ReleaseAfterCancel) {
        cancelled.store(true, ordering: .releasing)
        let taken = locked { () -> (Cursor?, Bool) in
            if emitting {
                pendingRelease = subscriber
                return (nil, false)
            }
            return (cursor.take(), true)
        }
        withExtendedLifetime(taken.0) {}
        if taken.1 { subscriber.releaseAfterCancel() }
    }
}

/// What a `SequenceSubscription`'s emitter works on, in one object released as one: the
/// downstream, the iterator, and the element to send next (there always is one: the subscription
/// ends when the iterator runs out).
@usableFromInline
final class SequenceCursor<Downstream: Subscriber, Iterator: IteratorProtocol> where Downstream.Input == Iterator.Element {
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var iterator: Iterator
    @usableFromInline @exclusivity(unchecked) var next: Iterator.Element

    @inlinable
    init(downstream: Downstream, iterator: Iterator, next: Iterator.Element) {
        self.downstream = downstream
        self.iterator = iterator
        self.next = next
    }
}

/// Equal when their sequences are equal, as in Combine.
extension Publishers.Sequence: Equatable where Elements: Equatable {}
