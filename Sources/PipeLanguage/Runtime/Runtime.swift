import Dispatch
import Foundation
import Synchronization

/// Clock, schedulers and task executor shared by every pipeline of a session.
///
/// In virtual mode every time-based operator runs on one `VirtualTimeScheduler`, `asyncMap` steps
/// sleep on its `VirtualClock` and their tasks run on a `ManualTaskExecutor`, so the shell drives
/// time with `driveVirtualTime(until:)` and output is identical on every run.
///
/// ```swift
/// let runtime = Runtime(clock: .virtual)
/// let session = Session(runtime: runtime)
/// ```
public final class Runtime: Sendable {
    /// Real or virtual.
    public let clock: ClockMode
    let virtual: VirtualParts?
    let queue: DispatchQueue
    /// `CLOCK_MONOTONIC` when the runtime was made, in nanoseconds.
    let origin: Int64
    /// Marks the runtime's queue, so `:trace` can say an event ran on it.
    static let queueKey = DispatchSpecificKey<Void>()

    struct VirtualParts: Sendable {
        let scheduler: VirtualTimeScheduler
        let executor: ManualTaskExecutor
        let clock: VirtualClock
    }

    /// Creates a runtime with its own schedulers.
    public init(clock: ClockMode) {
        self.clock = clock
        self.queue = DispatchQueue(label: "plumb.runtime")
        queue.setSpecific(key: Runtime.queueKey, value: ())
        self.origin = Runtime.monotonicNanoseconds()
        if clock == .virtual {
            let scheduler = VirtualTimeScheduler()
            virtual = VirtualParts(scheduler: scheduler, executor: ManualTaskExecutor(), clock: VirtualClock(scheduler: scheduler))
        } else {
            virtual = nil
        }
    }

    private let noteHandler = Lock<(@Sendable (String) -> Void)?>(nil)
    /// How many endless pulled sources (`timer every`) are being iterated: each sleeps one
    /// deadline at a time, so the scheduler sees no repeating action, yet left alone it never
    /// stops. The horizon counts them as it counts an interval's timer.
    private let endlessSources = EndlessSources()

    /// Marks an endless pulled source as running until the returned token is released.
    func endlessSource() -> EndlessSources.Token { EndlessSources.Token(endlessSources) }
    /// The stage whose scheduled action ran last (see `StageScheduler`).
    let timerStage = Lock<String?>(nil)

    /// Where notes made outside a run go (a bound `future` saying it started and when it is
    /// fulfilled); the shell prints them above the prompt. Without a handler they are dropped.
    public func onNote(_ handler: (@Sendable (String) -> Void)?) {
        noteHandler.withLock { $0 = handler }
    }

    func note(_ text: String) {
        let handler = noteHandler.withLock { $0 }
        handler?(text)
    }

    /// Monotonic time since the runtime was made; in virtual mode, the virtual time.
    public func now() -> Duration {
        .nanoseconds(nowNanoseconds())
    }

    /// `now()` in nanoseconds: what a run's recorder reads for every event, so it is one
    /// `clock_gettime` (through the vDSO) and no `Duration` arithmetic.
    public func nowNanoseconds() -> Int64 {
        if let virtual { return virtual.scheduler.now.nanoseconds }
        return Runtime.monotonicNanoseconds() &- origin
    }

    private static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }

    /// Virtual mode: drains tasks and scheduler actions, advancing virtual time, until `until()` is
    /// true or nothing is pending. Real mode: returns at once (the shell waits on its own).
    public func driveVirtualTime(until: () -> Bool) {
        guard let virtual else { return }
        virtual.scheduler.run(draining: virtual.executor, until: until)
    }

    /// One hour: how far a run drives virtual time while an endless timer (`interval`) keeps it
    /// going, unless told otherwise (`plumb --until`).
    public static let defaultHorizonNanoseconds: Int64 = 3_600_000_000_000

    /// `driveVirtualTime(until:)` with a horizon: stops, without passing it, when the next thing
    /// to do lies more than `horizon` after now while a timer that has repeated is pending (or an
    /// endless pulled source, `timer every`, is iterated), so a pipeline over `interval` that
    /// nothing ends stops instead of running forever. A lone far timer
    /// (`timer 27h`) is not endless and is driven to.
    /// - Returns: true when it stopped at the horizon.
    public func driveVirtualTime(horizonNanoseconds horizon: Int64, until: () -> Bool) -> Bool {
        guard let virtual else { return false }
        let scheduler = virtual.scheduler
        let (limit, overflow) = scheduler.now.nanoseconds.addingReportingOverflow(horizon)
        var stopped = false
        scheduler.run(draining: virtual.executor) {
            if until() { return true }
            guard !overflow, let next = scheduler.nextDeadline, next.nanoseconds > limit, !virtual.executor.hasPendingJobs,
                scheduler.hasRecurringAction || endlessSources.running
            else { return false }
            stopped = true
            return true
        }
        return stopped
    }

    /// The executor tasks should prefer (virtual mode), nil for the global one.
    var taskExecutor: (any TaskExecutor)? { virtual?.executor }

    /// Runs `action` once after `nanoseconds` on the runtime's scheduler.
    func schedule(afterNanoseconds nanoseconds: Int64, _ action: @escaping @Sendable () -> Void) {
        if let virtual {
            let s = virtual.scheduler
            s.schedule(after: s.now.advanced(by: .nanoseconds(Int(nanoseconds))), action)
        } else {
            queue.schedule(after: queue.now.advanced(by: .nanoseconds(Int(nanoseconds))), action)
        }
    }

    /// Sleeps on the runtime's clock; throws `CancellationError` if the task is cancelled.
    func sleep(nanoseconds: Int64) async throws {
        if let virtual {
            try await virtual.clock.sleep(for: .nanoseconds(nanoseconds))
        } else {
            try await ContinuousClock().sleep(for: .nanoseconds(nanoseconds))
        }
    }
}

/// How many endless pulled sources a runtime is iterating (`Runtime.endlessSource()`).
final class EndlessSources: Sendable {
    private let count = Atomic<Int>(0)

    var running: Bool { count.load(ordering: .relaxed) > 0 }

    /// Held by such a source's iterator while it lives.
    final class Token: Sendable {
        private let sources: EndlessSources

        init(_ sources: EndlessSources) {
            self.sources = sources
            sources.count.add(1, ordering: .relaxed)
        }

        deinit { sources.count.subtract(1, ordering: .relaxed) }
    }
}
