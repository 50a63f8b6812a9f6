import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestZip.swift` (`TestZip2`, `TestZip3`),
/// rewritten for `ReactiveAsync`: the package's arrays, its expected tuples (drawn as strings, as
/// tuples are not `Equatable`), nil past the end, the failure after the tuples made before it. The
/// package's gated tests are drawn as diagrams (a gate's `advance()` is an element at a later
/// step); where their expected output comes from: the package's assertions and its Zip guide.
@Suite(.hangLimit) struct TestZip: AsyncAlgorithmsValidation {
    private let abc = ["a", "b", "c"]

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_all_sequences_have_same_size() async {
        #expect(await Array(zip([1, 2, 3].async, abc.async)).map(pair) == ["1a", "2b", "3c"])
    }

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_first_is_longer() async {
        #expect(await Array(zip([1, 2, 3, 4, 5].async, abc.async)).map(pair) == ["1a", "2b", "3c"])
    }

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_second_is_longer() async {
        #expect(await Array(zip([1, 2, 3].async, (abc + ["d", "e"]).async)).map(pair) == ["1a", "2b", "3c"])
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_all_sequences_have_same_size() async {
        await expectDrained(zip([1, 2, 3].async, abc.async).map(pair), ["1a", "2b", "3c"])
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_first_is_longer() async {
        await expectDrained(zip([1, 2, 3, 4, 5].async, abc.async).map(pair), ["1a", "2b", "3c"])
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_second_is_longer() async {
        await expectDrained(zip([1, 2, 3].async, (abc + ["d", "e"]).async).map(pair), ["1a", "2b", "3c"])
    }

    @Test func test_zip_produces_one_element_and_throws_when_first_produces_one_element_and_throws() async {
        await expectDrained(zip([1, 2, 3].async.map { try throwOn(2, $0) }, abc.async).map(pair), ["1a"], fails: true)
    }

    @Test func test_zip_produces_one_element_and_throws_when_second_produces_one_element_and_throws() async {
        await expectDrained(zip([1, 2, 3].async, abc.async.map { try throwOn("b", $0) }).map(pair), ["1a"], fails: true)
    }

    @Test func test_zip_finishes_when_iteration_task_is_cancelled() async {
        let last = await lastElementBeforeCancellationEnds(zip(Indefinite(value: "test1").async, Indefinite(value: "test2").async).map(pair))
        #expect(last == "test1test2")
    }

    // An older version's test_iterate_when_one_is_empty_then_returns_nil.
    @Test func test_iterate_when_one_is_empty_then_returns_nil() async {
        await expectDrained(zip([Int]().async, ["a", "b"].async).map(pair), [])
    }

    // test_ordering (gates advanced a, b, a, b, …): each pair goes out when its later element arrives.
    @Test func test_ordering_diagram() {
        validate {
            "1-2-3-|"
            "-a-b-c|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a'-'2b'-'3c'|"
        }
    }

    // test_zip_first_longer as a diagram: the shorter base's finish ends the zip at once.
    @Test func test_shortest_finishes_diagram() {
        validate {
            "abcd|"
            "12|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "'a1''b2'|"
        }
    }

    @Test func test_failure_diagram() {
        validate {
            "ab^"
            "123|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "'a1''b2'^"
        }
    }

    @Test func test_zip3_diagram() {
        validate {
            "a--b--|"
            "-1--2-|"
            "--x--y|"
            zip($0.inputs[0], $0.inputs[1], $0.inputs[2]).map { $0 + $1 + $2 }
            "--'a1x'--'b2y'|"
        }
    }
}

/// The package's `TestZip3` cases: three bases, the same assertions.
@Suite(.hangLimit) struct TestZip3 {
    private let abc = ["a", "b", "c"]
    private let expected = ["1a1", "2b2", "3c3"]

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_all_sequences_have_same_size() async {
        #expect(await Array(zip([1, 2, 3].async, abc.async, [1, 2, 3].async)).map(triple) == expected)
    }

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_first_is_longer() async {
        #expect(await Array(zip([1, 2, 3, 4, 5].async, abc.async, [1, 2, 3].async)).map(triple) == expected)
    }

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_second_is_longer() async {
        #expect(await Array(zip([1, 2, 3].async, (abc + ["d", "e"]).async, [1, 2, 3].async)).map(triple) == expected)
    }

    @Test func test_zip_makes_sequence_equivalent_to_synchronous_zip_when_third_is_longer() async {
        #expect(await Array(zip([1, 2, 3].async, abc.async, [1, 2, 3, 4, 5].async)).map(triple) == expected)
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_all_sequences_have_same_size() async {
        await expectDrained(zip([1, 2, 3].async, abc.async, [1, 2, 3].async).map(triple), expected)
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_first_is_longer() async {
        await expectDrained(zip([1, 2, 3, 4, 5].async, abc.async, [1, 2, 3].async).map(triple), expected)
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_second_is_longer() async {
        await expectDrained(zip([1, 2, 3].async, (abc + ["d", "e"]).async, [1, 2, 3].async).map(triple), expected)
    }

    @Test func test_zip_produces_nil_next_element_when_iteration_is_finished_and_third_is_longer() async {
        await expectDrained(zip([1, 2, 3].async, abc.async, [1, 2, 3, 4, 5].async).map(triple), expected)
    }

    @Test func test_zip_produces_one_element_and_throws_when_first_produces_one_element_and_throws() async {
        await expectDrained(zip([1, 2, 3].async.map { try throwOn(2, $0) }, abc.async, [1, 2, 3].async).map(triple), ["1a1"], fails: true)
    }

    @Test func test_zip_produces_one_element_and_throws_when_second_produces_one_element_and_throws() async {
        await expectDrained(zip([1, 2, 3].async, abc.async.map { try throwOn("b", $0) }, [1, 2, 3].async).map(triple), ["1a1"], fails: true)
    }

    @Test func test_zip_produces_one_element_and_throws_when_third_produces_one_element_and_throws() async {
        await expectDrained(zip([1, 2, 3].async, abc.async, [1, 2, 3].async.map { try throwOn(2, $0) }).map(triple), ["1a1"], fails: true)
    }

    @Test func test_zip_finishes_when_iteration_task_is_cancelled() async {
        let zipped = zip(Indefinite(value: "test1").async, Indefinite(value: "test2").async, Indefinite(value: "test3").async)
        #expect(await lastElementBeforeCancellationEnds(zipped.map(triple)) == "test1test2test3")
    }
}

/// A pair drawn as one string, to compare (tuples are not `Equatable`).
@Sendable private func pair<A, B>(_ tuple: (A, B)) -> String { "\(tuple.0)\(tuple.1)" }

/// A triple drawn as one string.
@Sendable private func triple<A, B, C>(_ tuple: (A, B, C)) -> String { "\(tuple.0)\(tuple.1)\(tuple.2)" }
