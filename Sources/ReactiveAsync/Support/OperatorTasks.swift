import Synchronization

/// Counts the tasks of one run that the combining operators started and that have not ended yet.
///
/// Tests bind a counter with `OperatorTasks.$counter.withValue(counter) { … }` and, after cancelling
/// the consumer, require the count to return to zero: no operator task outlives its iterator.
final class LiveTaskCounter: Sendable {
    let count = Atomic<Int>(0)

    /// The number of counted tasks that are still running.
    var live: Int { count.load(ordering: .acquiring) }
}

/// Starts the combining operators' tasks through `TaskSpawning`, counting them when a test asks.
enum OperatorTasks {
    /// The counter of the current run; `nil` outside tests.
    @TaskLocal static var counter: LiveTaskCounter?

    /// Starts `operation` with `TaskSpawning.spawnTask`, so it honours the preferred executor.
    static func spawn(_ operation: sending @escaping () async -> Void) -> Task<Void, Never> {
        let counter = counter
        counter?.count.add(1, ordering: .relaxed)
        return TaskSpawning.spawnTask {
            await operation()
            counter?.count.subtract(1, ordering: .releasing)
        }
    }
}
