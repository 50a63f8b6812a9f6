import ReactiveAsync
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestReductions.swift`, rewritten for
/// `ReactiveAsync`: the running string of the digits so far, plain, throwing and `into:`.
@Suite(.hangLimit) struct TestReductions {
    @Test func test_reductions() async {
        await expectDrained([1, 2, 3, 4].async.reductions("") { $0 + "\($1)" }, ["1", "12", "123", "1234"])
    }

    @Test func test_throw_upstream_reductions() async {
        await expectDrained([1, 2, 3, 4].async.map { try throwOn(3, $0) }.reductions("") { $0 + "\($1)" }, ["1", "12"], fails: true)
    }

    @Test func test_throwing_reductions() async {
        let sequence = [1, 2, 3, 4].async.reductions("") { (partial, value) throws -> String in partial + "\(value)" }
        await expectDrained(sequence, ["1", "12", "123", "1234"])
    }

    @Test func test_throw_upstream_reductions_throws() async {
        let sequence = [1, 2, 3, 4].async.map { try throwOn(3, $0) }
            .reductions("") { (partial, value) throws -> String in partial + "\(value)" }
        await expectDrained(sequence, ["1", "12"], fails: true)
    }

    @Test func test_reductions_into() async {
        await expectDrained([1, 2, 3, 4].async.reductions(into: "") { $0.append("\($1)") }, ["1", "12", "123", "1234"])
    }

    @Test func test_throwing_reductions_into() async {
        let sequence = [1, 2, 3, 4].async.reductions(into: "") { (partial: inout String, value: Int) throws in partial.append("\(value)") }
        await expectDrained(sequence, ["1", "12", "123", "1234"])
    }

    // The closure throws when the running value is "12": after "1" and "12" are out.
    @Test func test_throwing_reductions_into_throws() async {
        let sequence = [1, 2, 3, 4].async.reductions(into: "") { partial, value in
            _ = try throwOn("12", partial)
            partial.append("\(value)")
        }
        await expectDrained(sequence, ["1", "12"], fails: true)
    }

    @Test func test_cancellation() async {
        let sequence = Indefinite(value: "test").async.reductions(into: "") { partial, value in partial = value }
        #expect(await lastElementBeforeCancellationEnds(sequence) == "test")
    }
}
