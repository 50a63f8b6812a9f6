import ReactiveAsync
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestCompacted.swift`, rewritten for
/// `ReactiveAsync`: the package's optionals, the non-nil ones out in order.
@Suite(.hangLimit) struct TestCompacted {
    @Test func test_compacting() async {
        #expect(await Array([1, 2, nil, 3, 4, nil, 5].async.compacted()) == [1, 2, 3, 4, 5])
    }

    @Test func test_compacting_past_end() async {
        await expectDrained([1, 2, nil, 3, 4, nil, 5].async.compacted(), [1, 2, 3, 4, 5])
    }

    @Test func test_compactingNonNils() async {
        let source: [Int?] = [1, 2, 3, 4, 5]
        #expect(await Array(source.async.compacted()) == [1, 2, 3, 4, 5])
    }

    @Test func test_throwing() async {
        let source: [Int?] = [1, nil, 3, 4, 5, nil, 7]
        await expectDrained(source.async.map { try throwOn(4, $0) }.compacted(), [1, 3], fails: true)
    }

    @Test func test_cancellation() async {
        let value: String? = "test"
        #expect(await lastElementBeforeCancellationEnds(Indefinite(value: value).async.compacted()) == "test")
    }
}
