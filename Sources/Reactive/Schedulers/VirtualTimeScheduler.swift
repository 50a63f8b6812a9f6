/// A scheduler whose clock moves only when told: deterministic time for tests and for the shell's
/// `--clock virtual`.
///
/// Pinned behaviour (CONTRACT.md C42):
/// - Actions run in time order, and actions due at the same time in the order they were scheduled.
/// - `schedule(options:)` queues the action at `now`; it runs on the next `advance` or `run`
///   (even `advance(by: .zero)`), never inside `schedule`.
/// - An action scheduled in the past is due *now*: it runs on the next advance, after the actions
///   already due now, and time never moves back.
/// - A repeating action is rescheduled at its previous deadline plus its interval (no drift), and
///   stops as soon as its cancellable is cancelled, also from inside its own action. An interval
///   below one nanosecond counts as one nanosecond.
/// - One loop runs actions at a time. `advance` or `run` called while a loop is running (from
///   inside an action, or from another thread) does not run anything itself: it raises the running
///   loop's target and returns at once; the running loop then runs those actions too, in order.
/// - Actions run on the thread that calls `advance`/`run`, never while a lock is held, so they may
///   schedule, cancel and read `now` freely.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// Just(1).delay(for: .seconds(1), scheduler: scheduler).sink { print($0) }
/// scheduler.advance(by: .milliseconds(999))   // nothing yet
/// scheduler.advance(by: .milliseconds(1))     // prints 1
/// ```
public final class VirtualTimeScheduler: Scheduler, Sendable {
    /// A point in virtual time, in nanoseconds since the scheduler's origin.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
        /// Nanoseconds since the origin.
        public var nanoseconds: Int64

        /// The origin of virtual time.
        public static let zero = SchedulerTimeType(nanoseconds: 0)

        /// The instant `nanoseconds` after the origin.
        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds) - Stride(nanoseconds: nanoseconds)
        }

        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: (Stride(nanoseconds: nanoseconds) + n).nanoseconds)
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        /// The time since the origin, as a stride (`1500ms`).
        public var description: String { Stride(nanoseconds: nanoseconds).description }

        /// A distance in virtual time, in nanoseconds; literals are seconds.
        public struct Stride: _NanosecondStride {
            public typealias Magnitude = Int64
            /// The stride in nanoseconds.
            public var nanoseconds: Int64

            /// A stride of `nanoseconds` nanoseconds.
            public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            public init(_nanoseconds: Int64) { nanoseconds = _nanoseconds }
            public var _nanoseconds: Int64 { nanoseconds }
            /// The absolute nanosecond count (saturating).
            public var magnitude: Int64 { nanoseconds == .min ? .max : Swift.abs(nanoseconds) }

            /// Converts a `Swift.Duration` (saturating).
            public init(_ duration: Duration) { self.init(nanoseconds: duration.saturatingNanoseconds) }
            /// The stride as a `Swift.Duration`.
            public var duration: Duration { .nanoseconds(nanoseconds) }
        }
    }

    public typealias SchedulerOptions = Never

    @usableFromInline
    struct Entry {
        var deadline: Int64
        var sequence: UInt64
        let id: UInt64
        let interval: Int64?
        var action: @Sendable () -> Void
        /// A repeating action that has run at least once: it is waiting to run again.
        var recurring = false

        func isAfter(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline > other.deadline : sequence > other.sequence
        }
    }

    @usableFromInline
    struct State {
        var now: Int64
        var sequence: UInt64 = 0
        /// Pending actions from `head` on, sorted soonest-first: new actions are usually the latest,
        /// so inserting appends, and taking the next one moves `head`.
        var queue: [Entry] = []
        var head = 0
        /// Pending entries that are `recurring`: kept as they come and go, so that a driver
        /// asking after every action costs O(1), not a walk of the queue (a 120,000-frame marble
        /// past the horizon was quadratic).
        var recurringCount = 0
        var driving = false
        /// How far the running loop goes.
        var target: Int64 = .min
        /// Where `now` ends when the running loop stops (`run()` does not move it past the last action).
        var finalNow: Int64 = .min

        var count: Int { queue.count - head }
        var next: Entry? { head < queue.count ? queue[head] : nil }

        mutating func insert(
            deadline: Int64, id: UInt64?, interval: Int64?, recurring: Bool = false, action: @escaping @Sendable () -> Void
        ) -> UInt64 {
            sequence &+= 1
            let entry = Entry(
                deadline: Swift.max(deadline, now), sequence: sequence, id: id ?? sequence, interval: interval, action: action,
                recurring: recurring)
            // After every entry due no later than the new one (same time: enqueue order).
            var low = head, high = queue.count
            if let last = queue.last, !last.isAfter(entry) {
                low = high
            }
            while low < high {
                let mid = (low + high) / 2
                if queue[mid].isAfter(entry) { high = mid } else { low = mid + 1 }
            }
            queue.insert(entry, at: low)
            if recurring { recurringCount += 1 }
            return entry.id
        }

        mutating func popNext() -> Entry {
            let entry = queue[head]
            if entry.recurring { recurringCount -= 1 }
            // The slot stays until compaction; drop its closure now so what it captured is freed (C16).
            queue[head].action = {}
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return entry
        }

        mutating func remove(id: UInt64) -> Entry? {
            guard let index = queue[head...].firstIndex(where: { $0.id == id }) else { return nil }
            if queue[index].recurring { recurringCount -= 1 }
            return queue.remove(at: index)
        }
    }

    let state: Lock<State>

    /// Creates a scheduler whose clock starts at `now`.
    public init(now: SchedulerTimeType = .zero) {
        state = Lock(State(now: now.nanoseconds))
    }

    /// The current virtual time.
    public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: state.withLock { $0.now }) }
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// The time of the next pending action, or `nil` when nothing is pending.
    public var nextDeadline: SchedulerTimeType? {
        state.withLock { $0.next.map { SchedulerTimeType(nanoseconds: $0.deadline) } }
    }

    /// True when a repeating action that has already run is waiting to run again (an interval's
    /// timer after its first tick): something that, left alone, never stops. A driver uses it to
    /// tell an endless run from a long one; a one-off timer built on the repeating form (stopped
    /// at its first tick) never counts.
    public var hasRecurringAction: Bool {
        state.withLock { $0.recurringCount > 0 }
    }

    /// How many actions are waiting (a repeating action counts once).
    public var pendingCount: Int { state.withLock { $0.count } }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        let action = ScheduledAction(action).sendable
        _ = state.withLock { $0.insert(deadline: $0.now, id: nil, interval: nil, action: action) }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        let action = ScheduledAction(action).sendable
        _ = state.withLock { $0.insert(deadline: date.nanoseconds, id: nil, interval: nil, action: action) }
    }

    /// Runs `action` at `date` and then every `interval` until the cancellable is cancelled or
    /// deinitialised.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = enqueue(at: date, interval: Swift.max(interval.nanoseconds, 1), ScheduledAction(action).sendable)
        return AnyCancellable { [weak self] in self?.removeAction(id) }
    }

    /// Queues an action and returns its id for `removeAction(_:)` (used by `VirtualClock`).
    func enqueue(at date: SchedulerTimeType, interval: Int64? = nil, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { $0.insert(deadline: date.nanoseconds, id: nil, interval: interval, action: action) }
    }

    /// Removes a pending action (and stops a repeating one); returns whether it was pending.
    @discardableResult
    func removeAction(_ id: UInt64) -> Bool {
        // Drop the closure outside the lock: releasing it may run deinits that schedule.
        let removed: Entry? = state.withLock { s in
            s.remove(id: id)
        }
        return removed != nil
    }

    /// Runs every action due up to `now + stride`, in time then scheduling order, and leaves `now`
    /// there. A negative stride does nothing but run what is already due.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        let current = state.withLock { $0.now }
        advance(to: SchedulerTimeType(nanoseconds: (Stride(nanoseconds: current) + Swift.max(stride, .zero)).nanoseconds))
    }

    private typealias Stride = SchedulerTimeType.Stride

    /// Runs every action due up to `date`, in time then scheduling order, and leaves `now` at
    /// `date` (or where it was, if that is later).
    public func advance(to date: SchedulerTimeType) {
        drive(to: date.nanoseconds, movesNow: true)
    }

    /// Runs actions until none is pending, moving `now` to each action's time.
    ///
    /// A repeating action that is never cancelled keeps it running forever: use `advance` for those.
    public func run() {
        drive(to: .max, movesNow: false)
    }

    /// The loop behind `advance` and `run`; returns how many actions it ran (0 when another loop
    /// was already running and took over the target).
    @discardableResult
    func drive(to target: Int64, movesNow: Bool) -> Int {
        let isDriver = state.withLock { s -> Bool in
            if s.driving {
                s.target = Swift.max(s.target, target)
                if movesNow { s.finalNow = Swift.max(s.finalNow, target) }
                return false
            }
            s.driving = true
            s.target = target
            s.finalNow = movesNow ? target : .min
            return true
        }
        guard isDriver else { return 0 }
        var count = 0
        while let action = state.withLock({ s -> (@Sendable () -> Void)? in
            if let next = s.next, next.deadline <= s.target {
                _ = s.popNext()
                if next.deadline > s.now { s.now = next.deadline }
                if let interval = next.interval {
                    let (following, overflow) = next.deadline.addingReportingOverflow(interval)
                    if !overflow {
                        _ = s.insert(deadline: following, id: next.id, interval: interval, recurring: true, action: next.action)
                    }
                }
                return next.action
            }
            if s.finalNow > s.now { s.now = s.finalNow }
            s.driving = false
            s.target = .min
            s.finalNow = .min
            return nil
        }) {
            action()
            count += 1
        }
        return count
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64`'s bounds.
    var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = ns.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }
}
