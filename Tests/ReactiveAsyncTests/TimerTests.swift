import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// A tick drawn as the diagram step it fired at.
private func stepOf(_ instant: ManualClock.Instant) -> String { "\(MarbleTest.step(at: instant))" }

@Suite(.hangLimit) struct TimerTests {
    // Guides/Timer.md: a tick every interval from the first next(); the element is the clock's now.
    // Marble step i is (i + 1) steps after the start, so ticks of `.steps(2)` land on steps 1, 3, 5.
    @Test("a timer ticks every interval until the consumer is cancelled")
    func ticks() {
        expectMarbles(cancelAt: 7) {
            AsyncTimerSequence.repeating(every: .steps(2), clock: $0.clock).map(stepOf)
            "-1-3-5"
        }
    }

    // The package's TestTimer.test_tick1/2/3: its `[;|]` (cancel, then the loop's end) is our
    // `cancelAt:`; a cancelled consumer records no `|` here.
    @Test("the package's tick examples", arguments: [(1, "xxxxxxx"), (2, "-x-x-x-"), (3, "--x--x-")])
    func packageTicks(every: Int, expected: String) {
        expectMarbles(cancelAt: 7) {
            AsyncTimerSequence(interval: .steps(every), clock: $0.clock).map { _ in "x" }
            expected
        }
    }

    // The package's TestTimer.test_tick2_event_skew3: a consumer slower than the interval gets the
    // missed ticks at once (deadlines come from the previous deadline); its `try?` swallows the
    // cancellation, so one more "x" arrives at the cancel step, as in the package's `[;x|]`.
    @Test("a slow consumer gets missed ticks at once")
    func packageSkew() {
        let result = validate(cancelAt: 9) { test in
            AsyncTimerSequence(interval: .steps(2), clock: test.clock).map { _ -> String in
                try? await test.clock.sleep(until: test.clock.now.advanced(by: .steps(3)))
                return "x"
            }
            "----x--x-x"
        }
        #expect(result.passed, "\(result)")
    }

    @Test("a consumer slower than the interval does not make the deadlines drift")
    func noDrift() {
        let result = validate(cancelAt: 11) { test in
            AsyncTimerSequence(interval: .steps(3), clock: test.clock).map { (instant: ManualClock.Instant) -> String in
                // Work for one step after each tick.
                try? await test.clock.sleep(for: .steps(1))
                return stepOf(instant)
            }
            "---2--5--8"
        }
        #expect(result.passed, "\(result)")
    }

    @Test("after cancellation the timer returns nil, then nil forever, and nobody sleeps")
    func cancellation() async {
        let clock = ManualClock(), executor = ManualExecutor()
        let task = TaskSpawning.$preferredExecutor.withValue(executor) {
            Task(executorPreference: executor) { () -> [Bool] in
                var iterator = AsyncTimerSequence.repeating(every: .seconds(1), clock: clock).makeAsyncIterator()
                withUnsafeCurrentTask { $0?.cancel() }
                return [await iterator.next() == nil, await iterator.next() == nil]
            }
        }
        clock.run(draining: executor)
        #expect(await task.value == [true, true])
        #expect(clock.sleeperCount == 0)
    }

    // Model: with interval k and the consumer cancelled at step c, ticks fire at k, 2k, … steps after
    // the start, strictly before the cancellation's instant (c + 1 steps: the canceller went to sleep
    // first and wins the tie).
    @Test("generated intervals and cancellations match a synchronous model", arguments: 0..<40)
    func matchesModel(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let interval = Int.random(in: 1...5, using: &generator)
        let cancelAt = Int.random(in: 0...20, using: &generator)
        let ticks = stride(from: interval, to: cancelAt + 1, by: interval).map { (step: $0 - 1, event: MarbleNotation.Event.value("\($0 - 1)")) }
        let model = draw(ticks)
        let result = validate(cancelAt: cancelAt) {
            AsyncTimerSequence.repeating(every: .steps(interval), clock: $0.clock).map(stepOf)
            model
        }
        #expect(result.passed, "interval \(interval), cancel at \(cancelAt):\n\(result)")
    }

    @Test("the same run gives the same trace 200 times")
    func deterministic() {
        var traces = Set<[String]>()
        for _ in 0..<200 {
            let result = validate(cancelAt: 9) {
                AsyncTimerSequence.repeating(every: .steps(2), clock: $0.clock).map(stepOf)
                "-1-3-5-7"
            }
            traces.insert(result.trace)
        }
        #expect(traces.count == 1)
    }
}
