import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestDebounce.swift`, rewritten for
/// `ReactiveAsync`: same diagrams, same expected output (the package's).
@Suite struct TestDebounce: AsyncAlgorithmsValidation {
    @Test func test_delayingValues() {
        validate {
            "abcd----e---f-g----|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d----e-----g-|"
        }
    }

    @Test func test_delayingValues_dangling_last() {
        validate {
            "abcd----e---f-g-|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d----e----[g|]"
        }
    }

    @Test func test_finishDoesntDebounce() {
        validate {
            "a|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "-[a|]"
        }
    }

    @Test func test_throwDoesntDebounce() {
        validate {
            "a^"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "-^"
        }
    }

    @Test func test_noValues() {
        validate {
            "----|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "----|"
        }
    }

    @Test func test_Rethrows() async throws {
        let debounce = [1].async.debounce(for: .zero, clock: ContinuousClock())
        for await _ in debounce {}
        let throwingDebounce = [1].async.map { try throwOn(2, $0) }.debounce(for: .zero, clock: ContinuousClock())
        for try await _ in throwingDebounce {}
    }
}
