import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestThrottle.swift` as of 1.x (calling
/// `_throttle`), rewritten for `ReactiveAsync`: same diagrams, same expected output (the
/// package's). An earlier version of that file expected the pending element at the finish to be
/// dropped (`"a--d--g--j--[k|]"`); 1.x sends it one interval later, with the finish, as here.
@Suite struct TestThrottle {
    @Test(
        "the package's throttle diagrams (name, input, interval in steps, latest, expected)",
        arguments: [
            ("test_rate_0", "abcdefghijk|", 0, true, "abcdefghijk|"),
            ("test_rate_0_leading_edge", "abcdefghijk|", 0, false, "abcdefghijk|"),
            ("test_rate_1", "abcdefghijk|", 1, true, "abcdefghijk|"),
            ("test_rate_1_leading_edge", "abcdefghijk|", 1, false, "abcdefghijk|"),
            ("test_rate_2", "abcdefghijk|", 2, true, "a-c-e-g-i-k|"),
            ("test_rate_2_leading_edge", "abcdefghijk|", 2, false, "a-b-d-f-h-j|"),
            ("test_rate_3", "abcdefghijk|", 3, true, "a--d--g--j--[k|]"),
            ("test_rate_3_leading_edge", "abcdefghijk|", 3, false, "a--b--e--h--[k|]"),
            ("test_throwing", "abcdef^hijk|", 2, true, "a-c-e-^"),
            ("test_throwing_leading_edge", "abcdef^hijk|", 2, false, "a-b-d-^"),
            ("test_emission_2_rate_1", "-a-b-c-d-e-f-g-h-i-j-k-|", 1, true, "-a-b-c-d-e-f-g-h-i-j-k-|"),
            ("test_emission_2_rate_2", "-a-b-c-d-e-f-g-h-i-j-k-|", 2, true, "-a-b-c-d-e-f-g-h-i-j-k-|"),
            ("test_emission_3_rate_2", "--a--b--c--d--e--f--g|", 2, true, "--a--b--c--d--e--f--g|"),
            ("test_emission_2_rate_3", "-a-b-c-d-e-f-g-h-i-j-k-|", 3, true, "-a---c---e---g---i---k-|"),
            ("test_trailing_delay_without_latest", "abcdefghijkl|", 3, false, "a--b--e--h--[k|]"),
            ("test_trailing_delay_with_latest", "abcdefghijkl|", 3, true, "a--d--g--j--[l|]"),
        ])
    func throttles(name: String, input: String, steps: Int, latest: Bool, expected: String) {
        expectValid(name, input, expected) { $0.inputs[0]._throttle(for: .steps(steps), clock: $0.clock, latest: latest) }
    }
}
