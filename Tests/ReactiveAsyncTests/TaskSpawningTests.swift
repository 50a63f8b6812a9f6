import Synchronization
import Testing

@testable import ReactiveAsync

/// An executor that counts the jobs it runs and runs each at once on the global executor.
private final class CountingExecutor: TaskExecutor, Sendable {
    let count = Atomic<Int>(0)
    func enqueue(_ job: consuming ExecutorJob) {
        count.add(1, ordering: .relaxed)
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}

@Suite struct TaskSpawningTests {
    @Test("an operator's task runs on the preferred executor, which a plain Task would not inherit")
    func spawnedTaskRunsOnPreferredExecutor() async {
        let executor = CountingExecutor()
        let value = await TaskSpawning.$preferredExecutor.withValue(executor) {
            await TaskSpawning.spawnTask { 41 + 1 }.value
        }
        #expect(value == 42)
        #expect(executor.count.load(ordering: .relaxed) > 0)
    }

    @Test("without a preference, tasks start on the global executor")
    func defaultIsGlobal() async {
        #expect(TaskSpawning.preferredExecutor == nil)
        let value = await TaskSpawning.spawnTask { 7 }.value
        #expect(value == 7)
    }

    @Test("a tracker counts the tasks started under it and how many still run")
    func trackerCounts() async {
        let tracker = TaskTracker()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let task = TaskSpawning.$tracker.withValue(tracker) {
            TaskSpawning.spawnTask { for await _ in gate {} }
        }
        #expect(tracker.started == 1)
        #expect(tracker.running == 1)
        open.finish()
        await task.value
        #expect(tracker.running == 0)
    }

    /// Where each way of starting work inside a run lands, as the job runs: whether the running
    /// task prefers the run's `ManualExecutor`. Swift 6 on Linux offers no public hook on the
    /// global executor (the package's validation replaces it through a private runtime hook; the
    /// toolchain's `ExecutorFactory` is SPI), and SE-0417 passes a task executor preference on to
    /// child tasks only, so a bare `Task {}` inside an operator's closure runs on the global
    /// executor, outside the run; `Task(executorPreference: TaskSpawning.preferredExecutor)` and
    /// `async let` stay on it (the Differences article "A bare Task in a closure leaves the run").
    @Test("a bare Task {} leaves a run's executor; a Task given TaskSpawning's preference and async let stay", .hangLimit)
    func bareTaskLeavesTheRunsExecutor() async {
        let executor = ManualExecutor()
        let seen = Mutex<(bare: Bool, preferred: Bool, child: Bool)?>(nil)
        Task(executorPreference: executor) {
            await TaskSpawning.$preferredExecutor.withValue(executor) {
                let bare = await Task { Self.prefers(executor) }.value
                let preferred = await Task(executorPreference: TaskSpawning.preferredExecutor) { Self.prefers(executor) }.value
                async let child = Self.prefers(executor)
                let fromChild = await child
                seen.withLock { $0 = (bare, preferred, fromChild) }
            }
        }
        // Drain the run's executor here until the probe is done; the bare task runs on the pool.
        // Between drains it sleeps rather than yields: a yield is queued again at once, so the
        // loop kept one of the pool's two threads busy while the bare task waited for a turn.
        while seen.withLock({ $0 }) == nil {
            if executor.drain() == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        }
        let result = seen.withLock { $0 }
        #expect(result?.bare == false)
        #expect(result?.preferred == true)
        #expect(result?.child == true)
    }

    /// Whether the current task prefers `executor`.
    private static func prefers(_ executor: ManualExecutor) -> Bool {
        withUnsafeCurrentTask { $0?.unownedTaskExecutor == executor.asUnownedTaskExecutor() }
    }
}
