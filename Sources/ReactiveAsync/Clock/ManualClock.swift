/// A clock whose time moves only when told: `advance(by:)` or `advance(to:)`.
///
/// Sleepers resume in deadline order; sleepers with the same deadline resume in the order they
/// went to sleep. Cancelling a sleeping task throws `CancellationError` at once and removes its
/// sleeper, so it never holds time back. A deadline that is not in the future returns at once
/// (after checking for cancellation). `now` starts at zero.
///
/// With a ``ManualExecutor`` and ``ManualClock/run(draining:until:)`` (advance until idle), a run of
/// async code on this clock is exactly reproducible.
///
/// ```swift
/// let clock = ManualClock()
/// let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(2))) }
/// clock.advance(by: .seconds(2))   // the sleeper resumes
/// ```
public final class ManualClock: Clock, Sendable {
    /// Durations are Swift's `Duration`.
    public typealias Duration = Swift.Duration

    /// A point on a ``ManualClock``'s timeline: the time since the clock's start.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Swift.Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Swift.Duration) { self.offset = offset }

        /// The clock's start.
        public static var zero: Instant { Instant(offset: .zero) }

        /// The instant `duration` later (earlier for a negative duration).
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The time since the clock's start, as `Duration` prints it ("2.0 seconds").
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var order: UInt64
        var continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant.zero
        var nextOrder: UInt64 = 0
        /// Kept sorted by (deadline, order).
        var sleepers: [Sleeper] = []
        /// Orders of sleepers cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = StateLock(State())

    /// A clock at instant zero with no sleepers.
    public init() {}

    /// The current instant; it changes only in `advance(by:)` and `advance(to:)`.
    public var now: Instant { state.withLock { $0.now } }

    /// One nanosecond.
    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a sleeping task, or nil when nobody sleeps.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.first?.deadline } }

    /// Suspends until the clock reaches `deadline`; `tolerance` is ignored (the clock is exact).
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` if the task is cancelled before or while sleeping.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let order = state.withLock { s -> UInt64? in
            guard deadline > s.now else { return nil }
            defer { s.nextOrder += 1 }
            return s.nextOrder
        }
        guard let order else { return }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let outcome = state.withLock { s -> Result<Void, any Error>? in
                    if s.cancelledEarly.remove(order) != nil { return .failure(CancellationError()) }
                    // Time may have reached the deadline between the check above and here.
                    if deadline <= s.now { return .success(()) }
                    let sleeper = Sleeper(deadline: deadline, order: order, continuation: continuation)
                    let index = s.sleepers.firstIndex { (deadline, order) < ($0.deadline, $0.order) } ?? s.sleepers.endIndex
                    s.sleepers.insert(sleeper, at: index)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { s -> UnsafeContinuation<Void, any Error>? in
                if let index = s.sleepers.firstIndex(where: { $0.order == order }) {
                    return s.sleepers.remove(at: index).continuation
                }
                // Not registered yet (or already woken): a late registration sees this and throws.
                if order < s.nextOrder { s.cancelledEarly.insert(order) }
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
        // A cancellation that raced a wake-up leaves an entry nobody will remove. Only a cancelled
        // task can have one (its handler has run by now), so the others skip the lock.
        if Task.isCancelled { state.withLock { _ = $0.cancelledEarly.remove(order) } }
    }

    /// Wakes the one sleeper that is next in line (earliest deadline, then earliest to sleep),
    /// moving the clock to its deadline if that is later than now.
    ///
    /// ``run(draining:until:)`` wakes sleepers this way, one at a time, running everything each one
    /// sets off before the next wakes, even at the same instant.
    ///
    /// - Returns: Whether a sleeper woke (false when nobody sleeps).
    @discardableResult
    public func wakeNext() -> Bool {
        let next = state.withLock { s -> Sleeper? in
            guard !s.sleepers.isEmpty else { return nil }
            let sleeper = s.sleepers.removeFirst()
            if sleeper.deadline > s.now { s.now = sleeper.deadline }
            return sleeper
        }
        next?.continuation.resume()
        return next != nil
    }

    /// Moves the clock forward by `duration` and resumes every sleeper due by then (see `advance(to:)`).
    ///
    /// - Parameter duration: How far to move; a negative duration does nothing.
    public func advance(by duration: Swift.Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards) and resumes every sleeper whose deadline has
    /// come, in deadline order, ties in the order they went to sleep.
    ///
    /// A resumed task runs on its executor later; to run it before time moves again, drive the
    /// clock with ``run(draining:until:)``.
    ///
    /// - Parameter instant: The instant to move to.
    public func advance(to instant: Instant) {
        let due = state.withLock { s -> [Sleeper] in
            if instant > s.now { s.now = instant }
            let count = s.sleepers.prefix { $0.deadline <= s.now }.count
            defer { s.sleepers.removeFirst(count) }
            return Array(s.sleepers.prefix(count))
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
