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
}

extension TaskSpawning {
    /// Starts an unstructured task on `preferredExecutor` (or the global executor).
    @discardableResult
    static func spawnTask<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        Task(executorPreference: preferredExecutor, operation: operation)
    }

    /// Starts an unstructured throwing task on `preferredExecutor` (or the global executor).
    @discardableResult
    static func spawnThrowingTask<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: preferredExecutor, operation: operation)
    }
}
