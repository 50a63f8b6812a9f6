import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestDebounce.swift`, rewritten for
/// `ReactiveAsync`: same diagrams, same expected output (the package's).
@Suite(.hangLimit) struct TestDebounce {
    @Test(
        "the package's debounce diagrams, 3 steps (name, input, expected)",
        arguments: [
            ("test_delayingValues", "abcd----e---f-g----|", "------d----e-----g-|"),
            ("test_delayingValues_dangling_last", "abcd----e---f-g-|", "------d----e----[g|]"),
            ("test_finishDoesntDebounce", "a|", "-[a|]"),
            ("test_throwDoesntDebounce", "a^", "-^"),
            ("test_noValues", "----|", "----|"),
        ])
    func debounces(name: String, input: String, expected: String) {
        expectValid(name, input, expected) { $0.inputs[0].debounce(for: .steps(3), clock: $0.clock) }
    }

    @Test func test_Rethrows() async throws {
        let debounce = [1].async.debounce(for: .zero, clock: ContinuousClock())
        for await _ in debounce {}
        let throwingDebounce = [1].async.map { try throwOn(2, $0) }.debounce(for: .zero, clock: ContinuousClock())
        for try await _ in throwingDebounce {}
    }
}
