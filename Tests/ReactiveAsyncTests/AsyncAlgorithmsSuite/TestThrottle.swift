import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestThrottle.swift` as of 1.x (calling
/// `_throttle`), rewritten for `ReactiveAsync`: same diagrams, same expected output (the
/// package's). An earlier version of that file expected the pending element at the finish to be
/// dropped (`"a--d--g--j--[k|]"`); 1.x sends it one interval later, with the finish, as here.
@Suite struct TestThrottle: AsyncAlgorithmsValidation {
    @Test func test_rate_0() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock)
            "abcdefghijk|"
        }
    }

    @Test func test_rate_0_leading_edge() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock, latest: false)
            "abcdefghijk|"
        }
    }

    @Test func test_rate_1() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
            "abcdefghijk|"
        }
    }

    @Test func test_rate_1_leading_edge() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock, latest: false)
            "abcdefghijk|"
        }
    }

    @Test func test_rate_2() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
            "a-c-e-g-i-k|"
        }
    }

    @Test func test_rate_2_leading_edge() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
            "a-b-d-f-h-j|"
        }
    }

    @Test func test_rate_3() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
            "a--d--g--j--[k|]"
        }
    }

    @Test func test_rate_3_leading_edge() {
        validate {
            "abcdefghijk|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
            "a--b--e--h--[k|]"
        }
    }

    @Test func test_throwing() {
        validate {
            "abcdef^hijk|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
            "a-c-e-^"
        }
    }

    @Test func test_throwing_leading_edge() {
        validate {
            "abcdef^hijk|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
            "a-b-d-^"
        }
    }

    @Test func test_emission_2_rate_1() {
        validate {
            "-a-b-c-d-e-f-g-h-i-j-k-|"
            $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
            "-a-b-c-d-e-f-g-h-i-j-k-|"
        }
    }

    @Test func test_emission_2_rate_2() {
        validate {
            "-a-b-c-d-e-f-g-h-i-j-k-|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
            "-a-b-c-d-e-f-g-h-i-j-k-|"
        }
    }

    @Test func test_emission_3_rate_2() {
        validate {
            "--a--b--c--d--e--f--g|"
            $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
            "--a--b--c--d--e--f--g|"
        }
    }

    @Test func test_emission_2_rate_3() {
        validate {
            "-a-b-c-d-e-f-g-h-i-j-k-|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
            "-a---c---e---g---i---k-|"
        }
    }

    @Test func test_trailing_delay_without_latest() {
        validate {
            "abcdefghijkl|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
            "a--b--e--h--[k|]"
        }
    }

    @Test func test_trailing_delay_with_latest() {
        validate {
            "abcdefghijkl|"
            $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: true)
            "a--d--g--j--[l|]"
        }
    }
}
