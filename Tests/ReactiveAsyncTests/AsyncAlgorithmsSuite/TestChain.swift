import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestChain.swift` (classes `TestChain2` and
/// `TestChain3`), rewritten for `ReactiveAsync`: the package's inputs and expected elements; the
/// throwing base throws on the package's value; after the end or the failure, `next()` is nil.
@Suite(.hangLimit) struct TestChain: AsyncAlgorithmsValidation {
    @Test func test_chain2_concatenates_elements_from_sequences_and_returns_nil_when_source_is_pastEnd() async {
        await expectDrained(chain([1, 2, 3].async, [4, 5, 6].async), [1, 2, 3, 4, 5, 6])
    }

    @Test func test_chain2_outputs_elements_from_first_sequence_and_throws_when_first_throws() async {
        await expectDrained(chain([1, 2, 3].async.map { try throwOn(3, $0) }, [4, 5, 6].async), [1, 2], fails: true)
    }

    @Test func test_chain2_outputs_elements_from_sequences_and_throws_when_second_throws() async {
        await expectDrained(chain([1, 2, 3].async, [4, 5, 6].async.map { try throwOn(5, $0) }), [1, 2, 3, 4], fails: true)
    }

    // The package only asks that the loop ends; it also moves on to the second base once the
    // first sees the cancellation (issue 42's observation). Ours ends without it.
    @Test func test_chain2_finishes_when_task_is_cancelled() async {
        let last = await lastElementBeforeCancellationEnds(chain(Indefinite(value: "test").async, ["past indefinite"].async))
        #expect(last == "test")
    }

    @Test func test_chain3_concatenates_elements_from_sequences_and_returns_nil_when_source_is_pastEnd() async {
        await expectDrained(chain([1, 2, 3].async, [4, 5, 6].async, [7, 8, 9].async), Array(1...9))
    }

    @Test func test_chain3_outputs_elements_from_first_sequence_and_throws_when_first_throws() async {
        await expectDrained(chain([1, 2, 3].async.map { try throwOn(3, $0) }, [4, 5, 6].async, [7, 8, 9].async), [1, 2], fails: true)
    }

    @Test func test_chain3_outputs_elements_from_sequences_and_throws_when_second_throws() async {
        await expectDrained(chain([1, 2, 3].async, [4, 5, 6].async.map { try throwOn(5, $0) }, [7, 8, 9].async), [1, 2, 3, 4], fails: true)
    }

    @Test func test_chain3_outputs_elements_from_sequences_and_throws_when_third_throws() async {
        await expectDrained(chain([1, 2, 3].async, [4, 5, 6].async, [7, 8, 9].async.map { try throwOn(8, $0) }), Array(1...7), fails: true)
    }

    @Test func test_chain3_finishes_when_task_is_cancelled() async {
        let sequence = chain(Indefinite(value: "test").async, ["past indefinite"].async, ["and even further"].async)
        #expect(await lastElementBeforeCancellationEnds(sequence) == "test")
    }

    // Not in the package: the same cancellation drawn on a timeline. The consumer is cancelled at
    // step 3 while the first base is still going; the second base's x never comes.
    @Test func cancelled_chain_does_not_move_on_diagram() {
        validate {
            "abcdefgh"
            "xyz|"
            chain($0.inputs[0], $0.inputs[1])
            "abc[;|]"
        }
    }
}
