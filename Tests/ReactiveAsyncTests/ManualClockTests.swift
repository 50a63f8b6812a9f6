import ReactiveAsync
import Synchronization
import Testing

/// Runs `body` in a task on `executor`, with operators' tasks on it too.
private func start(on executor: ManualExecutor, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    TaskSpawning.$preferredExecutor.withValue(executor) {
        Task(executorPreference: executor) { await body() }
    }
}

private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite(.hangLimit) struct ManualClockTests {
    // The documented contract of ManualClock (its doc comment), checked here.
    @Test("now starts at zero and moves only when told, never backwards")
    func nowMovesOnlyWhenTold() {
        let clock = ManualClock()
        #expect(clock.now == .zero)
        clock.advance(by: .seconds(2))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
        clock.advance(by: .seconds(-5))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    }

    @Test("sleepers wake in deadline order; equal deadlines wake in the order they went to sleep")
    func wakeOrder() {
        let clock = ManualClock(), executor = ManualExecutor(), log = Log()
        for (name, seconds) in [("a", 2), ("b", 1), ("c", 1), ("d", 2), ("e", 1)] {
            _ = start(on: executor) {
                try? await clock.sleep(until: .zero.advanced(by: .seconds(seconds)))
                log.append(name)
            }
        }
        executor.drain()
        #expect(clock.sleeperCount == 5)
        clock.run(draining: executor)
        #expect(log.all == ["b", "c", "e", "a", "d"])
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    }

    @Test("advance(to:) wakes only the sleepers due by then")
    func advanceWakesDueOnly() {
        let clock = ManualClock(), executor = ManualExecutor(), log = Log()
        for seconds in [1, 3] {
            _ = start(on: executor) {
                try? await clock.sleep(until: .zero.advanced(by: .seconds(seconds)))
                log.append("\(seconds)")
            }
        }
        executor.drain()
        clock.advance(by: .seconds(2))
        executor.drain()
        #expect(log.all == ["1"])
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(3)))
    }

    @Test("cancelling a sleeper throws CancellationError at once and removes it, without moving time")
    func cancellationRemovesSleeper() async {
        let clock = ManualClock(), executor = ManualExecutor()
        let sleeper = TaskSpawning.$preferredExecutor.withValue(executor) {
            Task(executorPreference: executor) { try await clock.sleep(until: .zero.advanced(by: .seconds(10))) }
        }
        executor.drain()
        #expect(clock.sleeperCount == 1)
        sleeper.cancel()
        #expect(clock.sleeperCount == 0)
        executor.drain()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.now == .zero)
    }

    @Test("a task cancelled before it sleeps throws without registering")
    func cancelledBeforeSleeping() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .zero.advanced(by: .seconds(1)))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("a deadline that is not in the future returns at once")
    func pastDeadline() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: .zero.advanced(by: .seconds(3)))
        try await clock.sleep(until: clock.now)
        #expect(clock.sleeperCount == 0)
    }
}

@Suite(.hangLimit) struct ManualDriverTests {
    @Test("the executor runs its jobs FIFO, only when drained")
    func executorIsFIFO() {
        let executor = ManualExecutor(), log = Log()
        for index in 0..<5 { _ = start(on: executor) { log.append("\(index)") } }
        #expect(log.all.isEmpty)
        #expect(executor.hasPendingJobs)
        #expect(executor.drain() == 5)
        #expect(log.all == ["0", "1", "2", "3", "4"])
    }

    @Test("many jobs queued while draining still run once each, in order")
    func manyJobs() {
        let executor = ManualExecutor(), log = Log()
        _ = start(on: executor) {
            for index in 0..<3000 { _ = start(on: executor) { log.append("\(index)") } }
        }
        executor.drain()
        #expect(log.all == (0..<3000).map { "\($0)" })
        #expect(!executor.hasPendingJobs)
    }

    @Test("advance until idle: time moves only when no job can run, and stops when nothing is pending")
    func advancesOnlyWhenIdle() {
        let clock = ManualClock(), executor = ManualExecutor(), log = Log()
        _ = start(on: executor) {
            for _ in 0..<3 {
                try? await clock.sleep(for: .seconds(2))
                // Work at one instant, spread over several jobs: time must not move meanwhile.
                let before = clock.now
                for _ in 0..<10 { await Task.yield() }
                log.append("\(before == clock.now) \(clock.now)")
            }
        }
        clock.run(draining: executor)
        #expect(log.all == ["true 2.0 seconds", "true 4.0 seconds", "true 6.0 seconds"])
        #expect(!executor.hasPendingJobs && clock.sleeperCount == 0)
    }

    @Test("sleepers due at one instant wake one at a time: each one's work runs before the next wakes")
    func sameInstantOneAtATime() {
        let clock = ManualClock(), executor = ManualExecutor(), log = Log()
        for name in ["first", "second"] {
            _ = start(on: executor) {
                try? await clock.sleep(until: .zero.advanced(by: .seconds(1)))
                log.append("\(name) woke")
                // Work spread over several jobs, which a batch wake-up would interleave.
                for _ in 0..<3 { await Task.yield() }
                log.append("\(name) done")
            }
        }
        clock.run(draining: executor)
        #expect(log.all == ["first woke", "first done", "second woke", "second done"])
    }

    @Test("the driver stops as soon as until() says so")
    func stopsOnUntil() {
        let clock = ManualClock(), executor = ManualExecutor()
        let ticker = start(on: executor) {
            while !Task.isCancelled { try? await clock.sleep(for: .seconds(1)) }
        }
        clock.run(draining: executor) { clock.now >= .zero.advanced(by: .seconds(3)) }
        #expect(clock.now == ManualClock.Instant(offset: .seconds(3)))
        ticker.cancel()
        clock.run(draining: executor)
        #expect(clock.sleeperCount == 0)
    }
}
