import ReactiveAsync
import ReactiveAsyncTesting
import Synchronization
import Testing

@Suite(.hangLimit) struct DebounceTests {
    // The package's Guides/Debounce.md and TestDebounce.test_delayingValues.
    @Test("an element goes out once the interval passes without a newer one")
    func delaysValues() {
        expectMarbles {
            "abcd----e---f-g----|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d----e-----g-|"
        }
    }

    // TestDebounce.test_delayingValues_dangling_last: the pending element goes out at the finish.
    @Test("when the base finishes, the pending element goes out at once, with the finish")
    func pendingElementAtFinish() {
        expectMarbles {
            "abcd----e---f-g-|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d----e----(g|)"
        }
    }

    // TestDebounce.test_finishDoesntDebounce.
    @Test("a finish right after an element is not debounced")
    func finishDoesNotWait() {
        expectMarbles {
            "a|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "-(a|)"
        }
    }

    // TestDebounce.test_throwDoesntDebounce: the failure goes out at once and the pending element is dropped.
    @Test("a failure goes out at once and drops the pending element")
    func failureDropsPending() {
        expectMarbles {
            "ab-c#"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "----#"
        }
    }

    // TestDebounce.test_noValues.
    @Test("an empty base finishes when it does", arguments: ["|", "----|", "--#"])
    func empty(diagram: String) {
        expectMarbles {
            diagram
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            diagram
        }
    }

    // Guides/Debounce.md: cancelling the consumer ends the iteration; nothing arrives afterwards and
    // the operator's task and the base's iteration end (liveTasks and iteratingInputs are checked
    // by `passed`).
    @Test("cancelling the consumer ends its task and the base's iteration; nothing arrives afterwards")
    func cancellation() {
        let result = expectMarbles(cancelAt: 7) {
            "abcd----e---f-g----|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d"
        }
        #expect(result.liveTasks == 0 && result.iteratingInputs == 0)
    }

    @Test("cancelling while an element is pending drops it; an endless base stops being iterated")
    func cancellationWithPending() {
        expectMarbles(cancelAt: 4) {
            "a-b-c-d-e"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            ""
        }
    }

    @Test("an endless base that stops producing: the last element still goes out, then the run is idle")
    func endlessBase() {
        expectMarbles {
            "a-b"
            $0.inputs[0].debounce(for: .steps(2), clock: $0.clock)
            "----b"
        }
    }

    // Guides/Debounce.md: leaving the loop drops the iterator, which ends the operator's task.
    @Test("leaving the loop drops the iterator, which ends the operator's task")
    func droppingIteratorEndsTask() async {
        let clock = ManualClock(), executor = ManualExecutor(), tracker = TaskTracker()
        let (base, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(1)  // then never finishes
        let consumer = TaskSpawning.$preferredExecutor.withValue(executor) {
            TaskSpawning.$tracker.withValue(tracker) {
                Task(executorPreference: executor) { () -> Int? in
                    for await value in base.debounce(for: .seconds(1), clock: clock) { return value }
                    return nil
                }
            }
        }
        clock.run(draining: executor)
        #expect(await consumer.value == 1)
        #expect(tracker.started == 1)
        #expect(tracker.running == 0)
        continuation.finish()
    }

    // The package's source (DebounceStateMachine's waiting-for-demand state): the base is pulled
    // only while the consumer waits; an element whose quiet time ended meanwhile goes out at once.
    @Test("the base is pulled only while the consumer waits; a due element goes to the next next() at once")
    func pullsOnDemand() async {
        let clock = ManualClock(), executor = ManualExecutor()
        let base = CountingTicks(clock: clock)
        let consumer = TaskSpawning.$preferredExecutor.withValue(executor) {
            Task(executorPreference: executor) { () -> [String] in
                var log: [String] = []
                var iterator = base.debounce(for: .milliseconds(500), clock: clock).makeAsyncIterator()
                guard let first = await iterator.next() else { return log }
                log.append("\(first) at \(clock.now), pulls \(base.pulls)")
                try? await clock.sleep(for: .seconds(10))
                log.append("pulls \(base.pulls) at \(clock.now)")
                guard let second = await iterator.next() else { return log }
                log.append("\(second) at \(clock.now)")
                return log
            }
        }
        clock.run(draining: executor)
        #expect(await consumer.value == ["0 at 1.5 seconds, pulls 2", "pulls 2 at 11.5 seconds", "1 at 11.5 seconds"])
    }

    // A non-throwing base makes a non-throwing debounce: `for await` without `try` (the package's
    // TestDebounce.test_Rethrows; a compile-time fact).
    @Test("a base that cannot fail gives a debounce iterated without try")
    func rethrowsShape() async {
        let base = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.finish()
        }
        var received: [Int] = []
        for await value in base.debounce(for: .zero, clock: ContinuousClock()) { received.append(value) }
        #expect(received == [1])
    }

    // The model: an element at step s survives when no newer element arrives by s + interval
    // (an element arriving exactly then wins: the base's sleeper went to sleep before the
    // operator's timer, an experiment on this clock); it goes out at s + interval, or at the finish
    // if that comes first; a failure drops it.
    @Test("generated inputs match a synchronous model", arguments: 0..<60)
    func matchesModel(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let input = GeneratedDiagram.random(using: &generator)
        let interval = Int.random(in: 1...4, using: &generator)
        var expected: [(step: Int, event: MarbleNotation.Event)] = []
        for (index, (step, value)) in input.values.enumerated() {
            let nextStep = index + 1 < input.values.count ? input.values[index + 1].step : Int.max
            let due = step + interval
            if let end = input.end, end.step <= due, nextStep > end.step {
                if !end.fails { expected.append((end.step, .value(value))) }
            } else if nextStep > due {
                expected.append((due, .value(value)))
            }
        }
        if let end = input.end { expected.append((end.step, end.fails ? .failed : .finished)) }
        let model = draw(expected)
        let result = validate {
            input.marbles
            $0.inputs[0].debounce(for: .steps(interval), clock: $0.clock)
            model
        }
        #expect(result.passed, "seed \(seed), interval \(interval):\n\(result)")
    }

    @Test("the same run gives the same trace 200 times")
    func deterministic() {
        var traces = Set<[String]>()
        for _ in 0..<200 {
            let result = validate {
                "ab-cd---e-f--g-h---|"
                $0.inputs[0].debounce(for: .steps(2), clock: $0.clock)
                "------d----f-----h-|"
            }
            traces.insert(result.trace)
        }
        #expect(traces.count == 1)
    }
}

/// 0, 1, 2 … one per second on `clock`, counting the `next()` calls it gets.
private struct CountingTicks: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let clock: ManualClock
    let counter = Counter()

    final class Counter: Sendable {
        let value = Mutex(0)
    }

    var pulls: Int { counter.value.withLock { $0 } }

    func makeAsyncIterator() -> Iterator { Iterator(clock: clock, counter: counter) }

    struct Iterator: AsyncIteratorProtocol {
        let clock: ManualClock
        let counter: Counter
        var next = 0

        mutating func next() async -> Int? {
            counter.value.withLock { $0 += 1 }
            do {
                try await clock.sleep(for: .seconds(1))
            } catch {
                return nil
            }
            defer { next += 1 }
            return next
        }
    }
}
