import ReactiveAsync
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestManualClock.swift`, rewritten for
/// `ReactiveAsync`'s public ``ManualClock`` (the package's is a test helper that advances a step
/// at a time; ours advances by a duration): a sleep of three steps ends at the third advance, not
/// before; a cancelled sleep throws `CancellationError`, whether the clock moved or not.
@Suite(.hangLimit) struct TestManualClock {
    private let step = Duration.seconds(1)

    /// Starts a task sleeping 3 steps on `clock` and waits until it sleeps; the task's value is
    /// the error its sleep threw, if any.
    private func sleeper(on clock: ManualClock) async -> Task<(any Error)?, Never> {
        let deadline = clock.now.advanced(by: step * 3)
        let task = Task { () -> (any Error)? in
            do {
                try await clock.sleep(until: deadline)
                return nil
            } catch {
                return error
            }
        }
        #expect(await eventually { clock.sleeperCount == 1 })
        return task
    }

    @Test func test_sleep() async {
        let clock = ManualClock()
        let task = await sleeper(on: clock)
        for _ in 0..<2 {
            clock.advance(by: step)
            #expect(clock.sleeperCount == 1, "still asleep before the third step")
        }
        clock.advance(by: step)
        #expect(await task.value == nil)
        #expect(clock.sleeperCount == 0)
    }

    @Test func test_sleep_cancel() async {
        let clock = ManualClock()
        let task = await sleeper(on: clock)
        clock.advance(by: step)
        task.cancel()
        #expect(await task.value is CancellationError)
    }

    @Test func test_sleep_cancel_before_advance() async {
        let clock = ManualClock()
        let task = await sleeper(on: clock)
        task.cancel()
        #expect(await task.value is CancellationError)
    }
}
