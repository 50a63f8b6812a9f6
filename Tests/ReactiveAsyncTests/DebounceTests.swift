import ReactiveAsync
import ReactiveAsyncTesting
import Testing

@Suite struct DebounceTests {
    // The package's TestDebounce.test_delayingValues.
    @Test("an element goes out once the interval passes without a newer one")
    func delaysValues() {
        let result = validate {
            "abcd----e---f-g----|"
            $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
            "------d----e-----g-|"
        }
        #expect(result.passed, "\(result)")
    }
}
