/// Where the tasks an operator starts run.
///
/// swift-async-algorithms starts its operators' tasks on the global executor. A task executor
/// preference (SE-0417) is inherited by child tasks but not by unstructured `Task { … }`, so a
/// harness that runs every job of a run on one manually drained executor (the package's own
/// validation tests do; so does Plumb's virtual clock) could not reach those tasks. Every task an
/// operator of this module starts goes through `spawnTask`, which honours `preferredExecutor`: a
/// task-local that unstructured tasks do inherit.
///
/// ```swift
/// await TaskSpawning.$preferredExecutor.withValue(executor) {
///     for await value in base.debounce(for: .seconds(1), clock: clock) { … }
/// }
/// ```
public enum TaskSpawning {
    /// The executor the operators' tasks prefer; `nil` (the default) is the global executor.
    @TaskLocal public static var preferredExecutor: (any TaskExecutor)?

    /// Counts the tasks operators start while it is set, and how many still run; `nil` (the
    /// default) counts nothing. Test harnesses set it to check that cancellation ends every task.
    @TaskLocal public static var tracker: TaskTracker?
}

/// How many tasks the operators started under it, and how many of those have not returned yet.
///
/// ```swift
/// let tracker = TaskTracker()
/// await TaskSpawning.$tracker.withValue(tracker) { … }
/// #expect(tracker.running == 0)
/// ```
public final class TaskTracker: Sendable {
    private let counts = StateLock((started: 0, running: 0))

    /// A tracker that has seen no task.
    public init() {}

    /// How many tasks started.
    public var started: Int { counts.withLock { $0.started } }

    /// How many started tasks have not returned yet.
    public var running: Int { counts.withLock { $0.running } }

    func taskStarted() { counts.withLock { $0 = ($0.started + 1, $0.running + 1) } }
    func taskEnded() { counts.withLock { $0.running -= 1 } }
}

extension TaskSpawning {
    /// Starts an unstructured task on `preferredExecutor` (or the global executor).
    @discardableResult
    static func spawnTask<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        guard let tracker else { return Task(executorPreference: preferredExecutor, operation: operation) }
        tracker.taskStarted()
        return Task(executorPreference: preferredExecutor) {
            defer { tracker.taskEnded() }
            return await operation()
        }
    }

    /// Starts an unstructured throwing task on `preferredExecutor` (or the global executor).
    @discardableResult
    static func spawnThrowingTask<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        guard let tracker else { return Task(executorPreference: preferredExecutor, operation: operation) }
        tracker.taskStarted()
        return Task(executorPreference: preferredExecutor) {
            defer { tracker.taskEnded() }
            return try await operation()
        }
    }
}
