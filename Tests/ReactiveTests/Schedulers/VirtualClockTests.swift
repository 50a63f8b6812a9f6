import Reactive
import ReactiveTestSupport
import Testing

@Suite("VirtualClock and ManualTaskExecutor")
struct VirtualClockTests {
    @Test("ManualTaskExecutor runs jobs only when drained, FIFO")
    func executorFIFO() {
        let executor = ManualTaskExecutor()
        let log = TimeTestLog()
        for index in 0..<5 {
            Task(executorPreference: executor) { log.append("\(index)") }
        }
        #expect(log.all.isEmpty)
        #expect(executor.hasPendingJobs)
        #expect(executor.drain() == 5)
        #expect(log.all == ["0", "1", "2", "3", "4"])
        #expect(!executor.hasPendingJobs)
    }

    @Test("sleepers wake at their deadline, same-time sleepers in registration order (b slept first); byte-identical runs")
    func deterministic() {
        func program() -> [String] {
            let scheduler = VirtualTimeScheduler()
            let executor = ManualTaskExecutor()
            let clock = VirtualClock(scheduler: scheduler)
            let log = TimeTestLog()
            func work(_ name: String, _ delays: [Int]) async {
                for delay in delays {
                    try? await clock.sleep(for: .milliseconds(delay))
                    log.append("\(clock.now) \(name)")
                }
            }
            Task(executorPreference: executor) { await work("a", [100, 100, 100]) }
            Task(executorPreference: executor) { await work("b", [150, 150]) }
            Task(executorPreference: executor) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await work("c1", [50]) }
                    group.addTask { await work("c2", [50]) }
                }
                log.append("\(clock.now) group done")
            }
            scheduler.run(draining: executor)
            return log.all
        }
        let first = program()
        #expect(
            first == [
                "50ms c1", "50ms c2", "50ms group done", "100ms a", "150ms b", "200ms a", "300ms b", "300ms a",
            ])
        for _ in 0..<5 { #expect(program() == first) }
    }

    @Test("cancelling a sleeping task throws CancellationError and removes the sleeper")
    func cancelSleeper() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let log = TimeTestLog()
        let task = Task(executorPreference: executor) {
            do {
                try await clock.sleep(for: .seconds(10))
                log.append("woke")
            } catch {
                log.append("\(type(of: error))")
            }
        }
        executor.drain()
        #expect(scheduler.pendingCount == 1)
        task.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run(draining: executor)
        #expect(log.all == ["CancellationError"])
        #expect(scheduler.now == .zero)
    }

    @Test("run(draining:until:) stops when until() is true")
    func until() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let ticks = Counter()
        Task(executorPreference: executor) {
            while !Task.isCancelled {
                try? await clock.sleep(for: .seconds(1))
                ticks.increment()
            }
        }
        scheduler.run(draining: executor) { ticks.value >= 3 }
        #expect(ticks.value == 3)
        #expect(scheduler.now == .init(nanoseconds: 3_000_000_000))
    }

    @Test("scheduler actions and async steps interleave deterministically")
    func mixed() {
        let scheduler = VirtualTimeScheduler()
        let executor = ManualTaskExecutor()
        let clock = VirtualClock(scheduler: scheduler)
        let log = TimeTestLog()
        scheduler.schedule(after: .init(nanoseconds: 1_500_000_000)) { log.append("action \(scheduler.now)") }
        Task(executorPreference: executor) {
            try await clock.sleep(until: .init(nanoseconds: 1_000_000_000))
            log.append("task \(clock.now)")
            try await clock.sleep(for: .seconds(1))
            log.append("task \(clock.now)")
        }
        scheduler.run(draining: executor)
        #expect(log.all == ["task 1s", "action 1500ms", "task 2s"])
    }
}
