extension AsyncSequence {
    /// Emits at most one element per `interval` on `clock`: the first at once, then, for each
    /// interval, the reduction of the elements that arrived in it.
    ///
    /// An element that arrives at least `interval` after the last emission goes out at once, as
    /// the reduction of everything since. When the base finishes with a reduction pending, it goes
    /// out once `interval` has passed since the last emission, then the sequence finishes; a
    /// failure drops it. No task is started: the consumer's `next()` pulls the base.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - clock: The clock that measures it.
    ///   - reducing: Folds an element into the reduction so far (nil at the start of an interval).
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// let counts = taps._throttle(for: .seconds(1), clock: .continuous) { count, _ in (count ?? 0) + 1 }
    /// ```
    public func _throttle<C: Clock, Reduced>(
        for interval: C.Instant.Duration,
        clock: C,
        reducing: @Sendable @escaping (Reduced?, Element) async -> Reduced
    ) -> _AsyncThrottleSequence<Self, C, Reduced> {
        _AsyncThrottleSequence(self, interval: interval, clock: clock, reducing: reducing)
    }

    /// Emits at most one reduction per `interval` on the continuous clock.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - reducing: Folds an element into the reduction so far (nil at the start of an interval).
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// let batches = events._throttle(for: .seconds(1)) { batch, event in (batch ?? []) + [event] }
    /// ```
    public func _throttle<Reduced>(
        for interval: Duration,
        reducing: @Sendable @escaping (Reduced?, Element) async -> Reduced
    ) -> _AsyncThrottleSequence<Self, ContinuousClock, Reduced> {
        _throttle(for: interval, clock: .continuous, reducing: reducing)
    }

    /// Emits at most one element per `interval` on `clock`: the latest of each interval, or with
    /// `latest: false` the first.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - clock: The clock that measures it.
    ///   - latest: Whether an interval's newest element (true) or its oldest (false) goes out.
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// for await position in drags._throttle(for: .milliseconds(16), clock: .continuous) { draw(position) }
    /// ```
    public func _throttle<C: Clock>(
        for interval: C.Instant.Duration,
        clock: C,
        latest: Bool = true
    ) -> _AsyncThrottleSequence<Self, C, Element> {
        _throttle(for: interval, clock: clock) { previous, element in
            latest ? element : (previous ?? element)
        }
    }

    /// Emits at most one element per `interval` on the continuous clock (the latest, or the first).
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - latest: Whether an interval's newest element (true) or its oldest (false) goes out.
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// for await position in drags._throttle(for: .milliseconds(16)) { draw(position) }
    /// ```
    public func _throttle(for interval: Duration, latest: Bool = true) -> _AsyncThrottleSequence<Self, ContinuousClock, Element> {
        _throttle(for: interval, clock: .continuous, latest: latest)
    }
}

extension AsyncSequence {
    /// The guide's name for `_throttle(for:clock:reducing:)` (the package ships it underscored).
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - clock: The clock that measures it.
    ///   - reducing: Folds an element into the reduction so far (nil at the start of an interval).
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// let counts = taps.throttle(for: .seconds(1), clock: .continuous) { count, _ in (count ?? 0) + 1 }
    /// ```
    public func throttle<C: Clock, Reduced>(
        for interval: C.Instant.Duration,
        clock: C,
        reducing: @Sendable @escaping (Reduced?, Element) async -> Reduced
    ) -> _AsyncThrottleSequence<Self, C, Reduced> {
        _throttle(for: interval, clock: clock, reducing: reducing)
    }

    /// The guide's name for `_throttle(for:reducing:)`.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - reducing: Folds an element into the reduction so far (nil at the start of an interval).
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// let batches = events.throttle(for: .seconds(1)) { batch, event in (batch ?? []) + [event] }
    /// ```
    public func throttle<Reduced>(
        for interval: Duration,
        reducing: @Sendable @escaping (Reduced?, Element) async -> Reduced
    ) -> _AsyncThrottleSequence<Self, ContinuousClock, Reduced> {
        _throttle(for: interval, reducing: reducing)
    }

    /// The guide's name for `_throttle(for:clock:latest:)`.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - clock: The clock that measures it.
    ///   - latest: Whether an interval's newest element (true) or its oldest (false) goes out.
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// for await position in drags.throttle(for: .milliseconds(16), clock: .continuous) { draw(position) }
    /// ```
    public func throttle<C: Clock>(
        for interval: C.Instant.Duration,
        clock: C,
        latest: Bool = true
    ) -> _AsyncThrottleSequence<Self, C, Element> {
        _throttle(for: interval, clock: clock, latest: latest)
    }

    /// The guide's name for `_throttle(for:latest:)`.
    ///
    /// - Parameters:
    ///   - interval: The least time between two emissions.
    ///   - latest: Whether an interval's newest element (true) or its oldest (false) goes out.
    /// - Returns: The throttled sequence.
    ///
    /// ```swift
    /// for await position in drags.throttle(for: .milliseconds(16)) { draw(position) }
    /// ```
    public func throttle(for interval: Duration, latest: Bool = true) -> _AsyncThrottleSequence<Self, ContinuousClock, Element> {
        _throttle(for: interval, latest: latest)
    }
}

/// The guide's name for `_AsyncThrottleSequence`.
public typealias AsyncThrottleSequence<Base: AsyncSequence, C: Clock, Reduced> = _AsyncThrottleSequence<Base, C, Reduced>

/// A rate-limited asynchronous sequence: at most one element per interval (made by `_throttle`).
public struct _AsyncThrottleSequence<Base: AsyncSequence, C: Clock, Reduced> {
    let base: Base
    let interval: C.Instant.Duration
    let clock: C
    let reducing: @Sendable (Reduced?, Base.Element) async -> Reduced

    init(_ base: Base, interval: C.Instant.Duration, clock: C, reducing: @Sendable @escaping (Reduced?, Base.Element) async -> Reduced) {
        self.base = base
        self.interval = interval
        self.clock = clock
        self.reducing = reducing
    }
}

extension _AsyncThrottleSequence: AsyncSequence {
    /// A reduction of the base's elements.
    public typealias Element = Reduced
    /// The base's failure.
    public typealias Failure = Base.Failure

    /// Starts an iteration of the base.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), interval: interval, clock: clock, reducing: reducing)
    }

    /// The iterator of a `_AsyncThrottleSequence`.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let interval: C.Instant.Duration
        private let clock: C
        private let reducing: @Sendable (Reduced?, Base.Element) async -> Reduced
        /// When the last reduction went out.
        private var last: C.Instant?
        private var finished = false

        fileprivate init(
            base: Base.AsyncIterator, interval: C.Instant.Duration, clock: C, reducing: @Sendable @escaping (Reduced?, Base.Element) async -> Reduced
        ) {
            self.base = base
            self.interval = interval
            self.clock = clock
            self.reducing = reducing
        }

        /// The next reduction, or nil at the end.
        ///
        /// - Throws: The base's failure.
        public mutating func next() async throws(Failure) -> Reduced? {
            guard !finished else { return nil }
            var reduced: Reduced?
            let start = last ?? clock.now
            while true {
                let element: Base.Element?
                do {
                    element = try await base.next(isolation: nil)
                } catch {
                    finished = true
                    throw error
                }
                guard let element else {
                    finished = true
                    // A base that ended because the consumer was cancelled delivers nothing more.
                    guard let pending = reduced, let last, !Task.isCancelled else { return nil }
                    // Keep the rate even for the last one: wait out the interval since the last emission.
                    let wait = last.duration(to: clock.now)
                    if wait < interval {
                        do {
                            try await clock.sleep(until: last.advanced(by: interval), tolerance: nil)
                        } catch {
                            // Cancelled while waiting: nothing goes out after cancellation.
                            return nil
                        }
                    }
                    return pending
                }
                let reduction = await reducing(reduced, element)
                let now = clock.now
                if last == nil || start.duration(to: now) >= interval {
                    last = now
                    return reduction
                }
                reduced = reduction
            }
        }
    }
}

extension _AsyncThrottleSequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension _AsyncThrottleSequence.Iterator: Sendable {}
