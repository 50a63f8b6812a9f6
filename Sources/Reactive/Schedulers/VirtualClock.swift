/// An async `Clock` on a `VirtualTimeScheduler`'s time: `sleep` resumes when the scheduler
/// reaches the deadline, never by itself.
///
/// Sleeping registers an action on the scheduler; sleepers due at the same time resume in the
/// order they started sleeping. Cancelling the sleeping task throws `CancellationError` at once
/// and removes the sleeper from the scheduler. A deadline that is not in the future returns at
/// once (after checking for cancellation).
///
/// ```swift
/// let scheduler = VirtualTimeScheduler(), executor = ManualTaskExecutor()
/// let clock = VirtualClock(scheduler: scheduler)
/// Task(executorPreference: executor) { try await clock.sleep(for: .seconds(1)); print("woke") }
/// scheduler.run(draining: executor)   // prints "woke"; scheduler.now is 1s
/// ```
public struct VirtualClock: Clock, Sendable {
    public typealias Duration = Swift.Duration

    /// A point in virtual time.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Nanoseconds since the scheduler's origin.
        public var nanoseconds: Int64

        /// The instant `nanoseconds` after the origin.
        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
        /// The instant of a scheduler time.
        public init(_ time: VirtualTimeScheduler.SchedulerTimeType) { nanoseconds = time.nanoseconds }

        /// The same instant as a scheduler time.
        public var schedulerTime: VirtualTimeScheduler.SchedulerTimeType { .init(nanoseconds: nanoseconds) }

        public func advanced(by duration: Swift.Duration) -> Instant {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.saturatingNanoseconds)
            return Instant(nanoseconds: overflow ? (duration > .zero ? .max : .min) : sum)
        }

        public func duration(to other: Instant) -> Swift.Duration {
            .nanoseconds(other.nanoseconds) - .nanoseconds(nanoseconds)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        public var description: String { schedulerTime.description }
    }

    /// The scheduler whose time this clock tells.
    public let scheduler: VirtualTimeScheduler

    /// A clock on `scheduler`'s time.
    public init(scheduler: VirtualTimeScheduler) { self.scheduler = scheduler }

    public var now: Instant { Instant(scheduler.now) }
    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// Suspends until the scheduler reaches `deadline`.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before or while sleeping.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        if deadline <= now { return }
        let sleeper = Sleeper()
        let scheduler = self.scheduler
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.attach(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let id = scheduler.enqueue(at: deadline.schedulerTime) { sleeper.wake() }
                if !sleeper.setAction(id) { scheduler.removeAction(id) }
            }
        } onCancel: {
            if let id = sleeper.cancel() { scheduler.removeAction(id) }
        }
    }
}

/// One sleeping task: its continuation and the scheduler action that wakes it. Whoever comes
/// first (the wake-up or the cancel) resumes the continuation; the other finds nothing to do.
private final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var action: UInt64?
        var cancelled = false
        var done = false
    }

    private let state = Lock(State())

    /// Stores the continuation; false when the task was already cancelled.
    func attach(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        state.withLock { s in
            if s.cancelled { return false }
            s.continuation = continuation
            return true
        }
    }

    /// Records the scheduler action; false when a cancel already came (then remove the action).
    func setAction(_ id: UInt64) -> Bool {
        state.withLock { s in
            if s.done { return false }
            s.action = id
            return true
        }
    }

    func wake() {
        let continuation = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard !s.done else { return nil }
            s.done = true
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume()
    }

    /// Resumes with `CancellationError`; returns the pending action to remove, if any.
    func cancel() -> UInt64? {
        let (continuation, action) = state.withLock { s -> (CheckedContinuation<Void, any Error>?, UInt64?) in
            s.cancelled = true
            guard !s.done else { return (nil, nil) }
            s.done = true
            defer { s.continuation = nil }
            return (s.continuation, s.action)
        }
        continuation?.resume(throwing: CancellationError())
        return action
    }
}
