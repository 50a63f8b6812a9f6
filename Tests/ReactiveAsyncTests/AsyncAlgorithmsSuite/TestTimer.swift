import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestTimer.swift`, rewritten for
/// `ReactiveAsync`: the package's diagrams unchanged. A timer started at the start ticks every
/// interval; `[;|]` is the package's cancellation at that step, after which the timer's `next()`
/// returns nil.
@Suite struct TestTimer: AsyncAlgorithmsValidation {
    @Test func test_tick1() {
        validate {
            AsyncTimerSequence(interval: .steps(1), clock: $0.clock).map { _ in "x" }
            "xxxxxxx[;|]"
        }
    }

    @Test func test_tick2() {
        validate {
            AsyncTimerSequence(interval: .steps(2), clock: $0.clock).map { _ in "x" }
            "-x-x-x-[;|]"
        }
    }

    @Test func test_tick3() {
        validate {
            AsyncTimerSequence(interval: .steps(3), clock: $0.clock).map { _ in "x" }
            "--x--x-[;|]"
        }
    }

    // Each tick's element takes 3 steps to make: the timer does not queue up missed ticks, and
    // the cancellation at step 9 ends the sleeping map (its `try?`) and then the timer.
    @Test func test_tick2_event_skew3() {
        validate { test in
            AsyncTimerSequence(interval: .steps(2), clock: test.clock).map { _ -> String in
                try? await test.clock.sleep(until: test.clock.now.advanced(by: .steps(3)))
                return "x"
            }
            "----x--x-[;x|]"
        }
    }
}
