extension Future where Failure == any Error, Output: Sendable {
    /// Creates a future that runs a throwing async function at once, in a new task.
    ///
    /// Like every `Future`, it starts now, not on subscription (wrap it in `Deferred` for that),
    /// and replays its one result to every subscriber. The task is not cancelled when
    /// subscribers cancel: the work belongs to the future, which others may still await.
    ///
    /// ```swift
    /// let user = Future { try await loader.loadUser(withID: id) }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - executorPreference: The executor the task prefers (SE-0417); `nil` for the global one.
    ///   - operation: The async work; its value or error fulfils the future.
    @_disfavoredOverload
    public convenience init(
        priority: TaskPriority? = nil,
        executorPreference: (any TaskExecutor)? = nil,
        operation: @escaping @Sendable () async throws -> Output
    ) {
        self.init { promise in
            Task(executorPreference: executorPreference, priority: priority) {
                do {
                    promise(.success(try await operation()))
                } catch {
                    promise(.failure(error))
                }
            }
        }
    }
}

extension Future where Failure == Never, Output: Sendable {
    /// Creates a future that runs an async function at once, in a new task.
    ///
    /// ```swift
    /// let image = Future { await renderer.render(photo) }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - executorPreference: The executor the task prefers (SE-0417); `nil` for the global one.
    ///   - operation: The async work; its value fulfils the future.
    public convenience init(
        priority: TaskPriority? = nil,
        executorPreference: (any TaskExecutor)? = nil,
        operation: @escaping @Sendable () async -> Output
    ) {
        self.init { promise in
            Task(executorPreference: executorPreference, priority: priority) {
                promise(.success(await operation()))
            }
        }
    }
}
