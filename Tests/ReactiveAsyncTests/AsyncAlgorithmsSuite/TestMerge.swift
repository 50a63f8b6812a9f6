import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestMerge.swift` (`TestMerge2`,
/// `TestMerge3`), rewritten for `ReactiveAsync`. The diagram test is the package's own; the others
/// keep the package's inputs and assertions (``expectMerged(_:_:failsAfter:sourceLocation:)``).
/// `test_merge3_longer_second_and_third` is now in ``TestMerge3``.
@Suite(.hangLimit) struct TestMerge: AsyncAlgorithmsValidation {
    @Test func test_merge_makes_sequence_with_ordered_elements_when_sources_follow_a_timeline() {
        validate {
            "a-c-e-g-|"
            "-b-d-f-h"
            merge($0.inputs[0], $0.inputs[1])
            "abcdefgh|"
        }
    }

    // Not in the package: its guide's example diagram (Validation.md), for three inputs.
    @Test func test_merge3_diagram() {
        validate {
            "a--d--|"
            "-b--e-|"
            "--c--f|"
            merge($0.inputs[0], $0.inputs[1], $0.inputs[2])
            "abcdef|"
        }
    }

    @Test func test_even_values() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6].async), Array(1...6))
    }

    @Test func test_longer_first() async {
        await expectMerged(merge([1, 2, 3, 4, 5, 6, 7].async, [8, 9, 10].async), Array(1...10))
    }

    @Test func test_longer_second() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6, 7].async), Array(1...7))
    }

    @Test func test_throwing_first() async {
        await expectMerged(merge([1, 2, 3, 4, 5].async.map { try throwOn(4, $0) }, [6, 7, 8].async), failsAfter: [1, 2, 3])
    }

    @Test func test_longer_second_throwing_first() async {
        let merged = merge([1, 2, 3, 4, 5].async.map { try throwOn(4, $0) }, [6, 7, 8, 9, 10, 11].async)
        await expectMerged(merged, failsAfter: [1, 2, 3])
    }

    @Test func test_throwing_second() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6, 7, 8].async.map { try throwOn(7, $0) }), failsAfter: [4, 5, 6])
    }

    @Test func test_longer_first_throwing_second() async {
        let merged = merge([1, 2, 3, 4, 5, 6, 7].async, [7, 8, 9, 10, 11].async.map { try throwOn(10, $0) })
        await expectMerged(merged, failsAfter: [7, 8, 9])
    }

    @Test func test_cancellation() async {
        #expect(await lastElementBeforeCancellationEnds(merge(Indefinite(value: "test1").async, Indefinite(value: "test2").async)) != nil)
    }

    // The package's test_cancellation waits on XCTest expectations for an endless base; here the
    // endless bases are diagrams without `|` under the plumb theme, and the consumer is cancelled
    // at step 3: nothing after it, no task and no base iteration left.
    @Test func test_merge_finishes_when_iteration_task_is_cancelled() {
        let result = ReactiveAsyncTesting.validate(cancelAt: 3) {
            "a-b-c-d-e"
            "-1-2-3-4-"
            merge($0.inputs[0], $0.inputs[1])
            "a1b"
        }
        #expect(result.passed, "\(result)")
    }
}

/// The package's `TestMerge3` cases: three bases, the same assertions.
@Suite(.hangLimit) struct TestMerge3 {
    @Test func test_even_values() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6].async, [7, 8, 9].async), Array(1...9))
    }

    @Test func test_longer_first() async {
        await expectMerged(merge([1, 2, 3, 4, 5].async, [6, 7, 8].async, [9, 10, 11].async), Array(1...11))
    }

    @Test func test_longer_second() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6, 7, 8].async, [9, 10, 11].async), Array(1...11))
    }

    @Test func test_longer_third() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6].async, [7, 8, 9, 10, 11].async), Array(1...11))
    }

    @Test func test_longer_first_and_third() async {
        await expectMerged(merge([1, 2, 3, 4, 5].async, [6, 7].async, [8, 9, 10, 11].async), Array(1...11))
    }

    @Test func test_longer_second_and_third() async {
        await expectMerged(merge([1, 2, 3].async, [4, 5, 6, 7].async, [8, 9, 10, 11].async), Array(1...11))
    }

    @Test func test_throwing_first() async {
        let merged = merge([1, 2, 3, 4, 5].async.map { try throwOn(4, $0) }, [6, 7, 8].async, [9, 10, 11].async)
        await expectMerged(merged, failsAfter: [1, 2, 3])
    }

    @Test func test_longer_second_throwing_first() async {
        let merged = merge([1, 2, 3, 4, 5].async.map { try throwOn(4, $0) }, [6, 7, 8, 9, 10, 11].async, [12, 13, 14].async)
        await expectMerged(merged, failsAfter: [1, 2, 3])
    }

    @Test func test_throwing_second() async {
        let merged = merge([1, 2, 3].async, [4, 5, 6, 7, 8].async.map { try throwOn(7, $0) }, [9, 10, 11].async)
        await expectMerged(merged, failsAfter: [4, 5, 6])
    }

    @Test func test_longer_first_throwing_second() async {
        let merged = merge([1, 2, 3, 4, 5, 6, 7].async, [7, 8, 9, 10, 11].async.map { try throwOn(10, $0) }, [12, 13, 14].async)
        await expectMerged(merged, failsAfter: [7, 8, 9])
    }

    @Test func test_cancellation() async {
        let merged = merge(Indefinite(value: "test1").async, Indefinite(value: "test2").async, Indefinite(value: "test3").async)
        #expect(await lastElementBeforeCancellationEnds(merged) != nil)
    }
}

/// The package's merge assertions: without a failure, every element of the bases exactly once
/// (their order across bases over `.async` is not specified, so compared sorted); with one, the
/// package's failure, after at least `failsAfter` (the failing base's elements before it); nil
/// past the end either way.
private func expectMerged<Merged: AsyncSequence>(
    _ merged: Merged, _ expected: [Int] = [], failsAfter: Set<Int>? = nil, sourceLocation: SourceLocation = #_sourceLocation
) async where Merged.Element == Int {
    let run = await drain(merged)
    if let failsAfter {
        #expect(run.error is PackageFailure, sourceLocation: sourceLocation)
        #expect(Set(run.elements).isSuperset(of: failsAfter), "\(run.elements)", sourceLocation: sourceLocation)
    } else {
        #expect(run.error == nil, sourceLocation: sourceLocation)
        #expect(run.elements.sorted() == expected, sourceLocation: sourceLocation)
    }
    #expect(run.pastEnd == nil && run.pastEndError == nil, sourceLocation: sourceLocation)
}
