import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestMerge.swift` (`TestMerge2`,
/// `TestMerge3`), rewritten for `ReactiveAsync`. The diagram test is the package's own; the others
/// keep the package's inputs and assertions (sets, since merge's order across bases over `.async`
/// is not specified).
@Suite struct TestMerge: AsyncAlgorithmsValidation {
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
        let merged = merge([1, 2, 3].async, [4, 5, 6].async)
        var collected: [Int] = []
        var iterator = merged.makeAsyncIterator()
        while let item = await iterator.next() { collected.append(item) }
        let pastEnd = await iterator.next()
        #expect(pastEnd == nil)
        #expect(Set(collected) == Set([1, 2, 3, 4, 5, 6]) && collected.count == 6)
    }

    @Test func test_longer_first() async {
        let merged = merge([1, 2, 3, 4, 5, 6, 7].async, [8, 9, 10].async)
        var collected: [Int] = []
        for await item in merged { collected.append(item) }
        #expect(collected.sorted() == Array(1...10))
    }

    @Test func test_throwing_first() async throws {
        let merged = merge([1, 2, 3, 4, 5].async.map { try throwOn(4, $0) }, [6, 7, 8].async)
        var collected = Set<Int>()
        var iterator = merged.makeAsyncIterator()
        do {
            while let item = try await iterator.next() { collected.insert(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(collected.intersection([1, 2, 3]) == Set([1, 2, 3]))
        let pastEnd = try await iterator.next()
        #expect(pastEnd == nil)
    }

    @Test func test_throwing_second() async throws {
        let merged = merge([1, 2, 3].async, [4, 5, 6, 7, 8].async.map { try throwOn(7, $0) })
        var collected = Set<Int>()
        var iterator = merged.makeAsyncIterator()
        do {
            while let item = try await iterator.next() { collected.insert(item) }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(collected.intersection([4, 5, 6]) == Set([4, 5, 6]))
        let pastEnd = try await iterator.next()
        #expect(pastEnd == nil)
    }

    @Test func test_merge3_longer_second_and_third() async {
        let merged = merge([1, 2, 3].async, [4, 5, 6, 7].async, [8, 9, 10, 11].async)
        var collected: [Int] = []
        for await item in merged { collected.append(item) }
        #expect(collected.sorted() == Array(1...11))
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
