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
            if let first = iterator.next() {
                let sequence = self.sequence
                subscriber.receive(subscription: SequenceSubscription(
                    downstream: subscriber, iterator: iterator, first: first, describe: { String(describing: sequence) }))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Swift.Sequence {
    /// A publisher of this sequence's elements that cannot fail.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}

/// Emits a sequence on demand. One thread at a time is the *emitter* (`emitting == true`); it owns
/// the iterator and reads `downstream` without the lock. Others only add demand or cancel, and
/// the emitter picks that up; so `request` from inside `receive` never recurses (C20).
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription, CustomStringConvertible
where Downstream.Input == Iterator.Element {
    @usableFromInline let lock = Lock()
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var iterator: Iterator
    @usableFromInline @exclusivity(unchecked) var pending: Iterator.Element?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    @usableFromInline @exclusivity(unchecked) var emitting = false
    /// `handleRequest`, captured where the types are concrete. `request` is reached through `any
    /// Subscription`, whose witness is the unspecialised generic code (generic metadata lookups on
    /// every call); calling through this closure runs the whole request, lock and per-element
    /// loop included, in the specialised copy (10-50x faster across modules for the loop; the
    /// `values` benchmark, one value per request, went from ~320 to ~135 ns per element).
    @usableFromInline let specializedRequest: (SequenceSubscription, Subscribers.Demand) -> Void
    /// The sequence's own description, made only when asked (`print` shows it).
    @usableFromInline let describe: () -> String

    @inlinable
    init(downstream: Downstream, iterator: Iterator, first: Iterator.Element, describe: @escaping () -> String) {
        self.downstream = downstream
        self.iterator = iterator
        self.pending = first
        self.describe = describe
        self.specializedRequest = { $0.handleRequest($1) }
    }

    /// As Combine's: the sequence itself, so `[1, 2, 3].publisher.print()` writes
    /// `receive subscription: ([1, 2, 3])`.
    @usableFromInline var description: String { describe() }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        specializedRequest(self, more)
    }

    @inlinable
    func handleRequest(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        // Becoming the emitter and taking the demand are one critical section.
        let budget = lock.guarded { () -> Subscribers.Demand in
            guard downstream != nil else { return .none }
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
        var budget = initial
        // Only the emitter touches `downstream`, `iterator` and `pending` outside the lock; it works
        // on local copies (no exclusivity checks per element) and writes them back when it stops.
        guard let downstream else { return release() }
        var iterator = self.iterator
        var pending = self.pending
        while true {
            if budget == .none {
                // Write the cursor back before the lock can hand emitting to another thread.
                self.iterator = iterator
                self.pending = pending
                budget = lock.guarded { () -> Subscribers.Demand in
                    let taken = demand
                    demand = .none
                    if cancelled.load(ordering: .relaxed) {
                        // A cancel that saw `emitting == true` left the release to us.
                        emitting = false
                        self.downstream = nil
                        self.pending = nil
                        return .none
                    }
                    if taken == .none { emitting = false }
                    return taken
                }
                if budget == .none { return }
            }
            if cancelled.load(ordering: .acquiring) { break }
            guard let element = pending else { break }
            pending = iterator.next()
            let more = downstream.receive(element)
            if !budget.isUnlimited { budget = budget - 1 + more }
            if pending == nil {
                self.pending = nil
                finish()
                return
            }
        }
        release()
    }

    @inlinable
    func finish() {
        let target = lock.guarded { () -> Downstream? in
            emitting = false
            let target = cancelled.load(ordering: .relaxed) ? nil : downstream
            downstream = nil
            return target
        }
        target?.receive(completion: .finished)
    }

    @inlinable
    func release() {
        lock.guarded {
            emitting = false
            downstream = nil
            pending = nil
        }
    }

    @inlinable
    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lock.guarded {
            if !emitting {
                downstream = nil
                pending = nil
            }
        }
    }
}

/// Equal when their sequences are equal, as in Combine.
extension Publishers.Sequence: Equatable where Elements: Equatable {}
