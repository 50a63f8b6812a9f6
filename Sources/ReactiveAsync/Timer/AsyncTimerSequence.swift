/// An asynchronous sequence of the instants a repeating timer fires at.
///
/// The first deadline is one `interval` after the first `next()`; each next deadline is one
/// `interval` after the previous deadline (not after the wake-up, so the timer does not drift).
/// Each element is the clock's `now` at the wake-up. Cancelling the consuming task ends the
/// sequence (`next()` returns nil, then nil forever). No task is started.
///
/// ```swift
/// for await tick in AsyncTimerSequence.repeating(every: .seconds(1), clock: .continuous) {
///     print(tick)
/// }
/// ```
public struct AsyncTimerSequence<C: Clock>: AsyncSequence {
    /// The instant of a tick.
    public typealias Element = C.Instant
    /// A timer cannot fail.
    public typealias Failure = Never

    let clock: C
    let interval: C.Instant.Duration
    let tolerance: C.Instant.Duration?

    /// A timer firing every `interval` on `clock`.
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: Passed to the clock's `sleep`.
    ///   - clock: The clock to sleep on.
    public init(interval: C.Instant.Duration, tolerance: C.Instant.Duration? = nil, clock: C) {
        self.clock = clock
        self.interval = interval
        self.tolerance = tolerance
    }

    /// Starts the timer: the first tick comes one interval after the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(interval: interval, tolerance: tolerance, clock: clock)
    }

    /// The iterator of an ``AsyncTimerSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        /// nil once cancelled: the timer is over.
        private var clock: C?
        private let interval: C.Instant.Duration
        private let tolerance: C.Instant.Duration?
        private var last: C.Instant?

        fileprivate init(interval: C.Instant.Duration, tolerance: C.Instant.Duration?, clock: C) {
            self.clock = clock
            self.interval = interval
            self.tolerance = tolerance
        }

        /// Sleeps until the next deadline and returns the clock's time then; nil once cancelled.
        public mutating func next() async -> C.Instant? {
            guard let clock else { return nil }
            let deadline = (last ?? clock.now).advanced(by: interval)
            do {
                try await clock.sleep(until: deadline, tolerance: tolerance)
            } catch {
                self.clock = nil
                return nil
            }
            last = deadline
            return clock.now
        }
    }
}

extension AsyncTimerSequence {
    /// A timer firing every `interval` on `clock`.
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: Passed to the clock's `sleep`.
    ///   - clock: The clock to sleep on.
    /// - Returns: The timer.
    ///
    /// ```swift
    /// let ticks = AsyncTimerSequence.repeating(every: .seconds(1), clock: manualClock)
    /// ```
    public static func repeating(every interval: C.Instant.Duration, tolerance: C.Instant.Duration? = nil, clock: C) -> AsyncTimerSequence<C> {
        AsyncTimerSequence(interval: interval, tolerance: tolerance, clock: clock)
    }
}

extension AsyncTimerSequence where C == SuspendingClock {
    /// A timer firing every `interval` on the suspending clock.
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks.
    ///   - tolerance: Passed to the clock's `sleep`.
    /// - Returns: The timer.
    ///
    /// ```swift
    /// for await _ in AsyncTimerSequence.repeating(every: .seconds(1)) { refresh() }
    /// ```
    public static func repeating(every interval: Duration, tolerance: Duration? = nil) -> AsyncTimerSequence<SuspendingClock> {
        AsyncTimerSequence(interval: interval, tolerance: tolerance, clock: SuspendingClock())
    }
}

extension AsyncTimerSequence: Sendable {}

@available(*, unavailable)
extension AsyncTimerSequence.Iterator: Sendable {}
