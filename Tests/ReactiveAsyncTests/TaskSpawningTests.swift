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
}
