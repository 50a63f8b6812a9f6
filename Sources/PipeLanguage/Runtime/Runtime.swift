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
    // Virtual mode arrives with the `time` branch (VirtualTimeScheduler, VirtualClock, ManualTaskExecutor).
    let virtual: VirtualParts? = nil
    let queue: DispatchQueue
    let origin: ContinuousClock.Instant

    struct VirtualParts: Sendable {}

    /// Creates a runtime with its own schedulers.
    public init(clock: ClockMode) {
        self.clock = clock
        self.queue = DispatchQueue(label: "plumb.runtime")
        self.origin = ContinuousClock.now
    }

    /// Monotonic time since the runtime was made; in virtual mode, the virtual time.
    public func now() -> Duration {
        return ContinuousClock.now - origin
    }

    /// Virtual mode: drains tasks and scheduler actions, advancing virtual time, until `until()` is
    /// true or nothing is pending. Real mode: returns at once (the shell waits on its own).
    public func driveVirtualTime(until: () -> Bool) {
        _ = until
    }

    /// The executor tasks should prefer (virtual mode), nil for the global one.
    var taskExecutor: (any TaskExecutor)? { nil }

    /// Sleeps on the runtime's clock; throws `CancellationError` if the task is cancelled.
    func sleep(nanoseconds: Int64) async throws {
        try await ContinuousClock().sleep(for: .nanoseconds(nanoseconds))
    }
}
