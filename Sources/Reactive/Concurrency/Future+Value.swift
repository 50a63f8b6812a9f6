extension Future where Output: Sendable {
    /// The future's result, awaited: its value, or its failure thrown.
    ///
    /// Each access subscribes once and waits for the one result (a future that is already
    /// fulfilled answers at once). Cancelling the awaiting task throws `CancellationError` and
    /// cancels only that subscription, never the future's work. `Output` must be `Sendable`
    /// because the value crosses into the awaiting task (Combine has no such requirement).
    ///
    /// ```swift
    /// let answer = try await Future<Int, any Error> { $0(.success(42)) }.value
    /// ```
    /// - Throws: The future's failure, or `CancellationError` when the task is cancelled.
    public var value: Output {
        get async throws {
            try await async()
        }
    }
}

extension Future where Failure == Never, Output: Sendable {
    /// The future's value, awaited.
    ///
    /// A future that can't fail always ends with its value, so this does not throw; like
    /// Combine's, it waits for the value even when the awaiting task is cancelled (cancellation
    /// has nothing to report here), and a future that is never fulfilled never returns.
    ///
    /// ```swift
    /// let answer = await Future<Int, Never> { $0(.success(42)) }.value
    /// ```
    public var value: Output {
        get async {
            let subscriber = FirstValueSubscriber<Output, Never>()
            do {
                // No cancellation handler: only the future's value can resume this wait.
                return try await withCheckedThrowingContinuation { continuation in
                    if subscriber.install(continuation) { subscribe(subscriber) }
                }
            } catch {
                // Unreachable: a `Future` sends its value before finishing, and nothing cancels.
                preconditionFailure("a Future<_, Never> ended without a value: \(error)")
            }
        }
    }
}
