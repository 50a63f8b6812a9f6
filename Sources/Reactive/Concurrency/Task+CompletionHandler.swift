import Dispatch

// Completion-handler façades over async functions, for APIs that cannot change their signature yet.
//
// Linux: the default queue is `.main`, and the main queue only runs its work when the program
// runs it: `dispatchMain()`, a `RunLoop`, or an event loop that drains the main queue. A
// command-line tool that returns from `main`, or blocks its main thread waiting, never sees the
// completion. Pass another queue (`DispatchQueue.global()`, a private serial queue) when nothing
// runs the main queue.

extension Task where Success == Void, Failure == any Error {
    /// Runs a throwing async function that returns a value and hands its result to `completion`,
    /// exactly once, on `queue`.
    ///
    /// ```swift
    /// func apply(_ effect: Effect, to photo: Photo, completion: @escaping @Sendable (Result<Photo, any Error>) -> Void) {
    ///     Task(operation: { try await processor.process(photo) }, queue: .global(), completion: completion)
    /// }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The async work.
    ///   - queue: Where `completion` runs; `.main` by default. On Linux the main queue runs only
    ///     while the program services it (`dispatchMain()`, a `RunLoop`, or top-level `await`);
    ///     otherwise pass another queue, or the completion never runs.
    ///   - completion: Called once with the value or the error (`CancellationError` if the task was
    ///     cancelled and `operation` threw it).
    @discardableResult
    public init<Value: Sendable>(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Value,
        queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        self.init(priority: priority) {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            queue.async { completion(result) }
        }
    }

    /// Runs a throwing async function and reports its outcome to `completion`, exactly once, on
    /// `queue`: `nil` on success, the error otherwise.
    ///
    /// ```swift
    /// Task(operation: { try await processor.configure(settings) }, queue: .global()) { error in
    ///     if let error { print("failed: \(error)") }
    /// }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The async work.
    ///   - queue: Where `completion` runs; `.main` by default. On Linux the main queue runs only
    ///     while the program services it (`dispatchMain()`, a `RunLoop`, or top-level `await`);
    ///     otherwise pass another queue, or the completion never runs.
    ///   - completion: Called once with `nil` or the error.
    @discardableResult
    public init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Void,
        queue: DispatchQueue = .main,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.init(priority: priority) {
            let failure: (any Error)?
            do {
                try await operation()
                failure = nil
            } catch {
                failure = error
            }
            queue.async { completion(failure) }
        }
    }
}

extension Task where Success == Void, Failure == Never {
    /// Runs an async function that cannot fail and calls `completion` once it returns, exactly
    /// once, on `queue`.
    ///
    /// ```swift
    /// Task(operation: { await processor.reset() }, queue: .global()) { print("reset") }
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The async work.
    ///   - queue: Where `completion` runs; `.main` by default. On Linux the main queue runs only
    ///     while the program services it (`dispatchMain()`, a `RunLoop`, or top-level `await`);
    ///     otherwise pass another queue, or the completion never runs.
    ///   - completion: Called once, after `operation` returned.
    @discardableResult
    public init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async -> Void,
        queue: DispatchQueue = .main,
        completion: @escaping @Sendable () -> Void
    ) {
        self.init(priority: priority) {
            await operation()
            queue.async { completion() }
        }
    }
}
