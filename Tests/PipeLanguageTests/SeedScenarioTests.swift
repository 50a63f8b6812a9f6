import Testing
@testable import PipeLanguage

/// The reference articles' scenarios, with Combine's semantics.
@Suite struct SeedScenarioTests {
    @Test("Deferred { Future }.retry(3): flaky counts across deferred's subscriptions within one run")
    func deferredRetry() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("deferred { just true | asyncMap flaky 2 } | retry 3", session: session) == ["0 subscribed", "0 value true", "0 finished"])
        // The next statement starts from zero: two failures again, and retry 1 is not enough.
        #expect(run("deferred { just true | asyncMap flaky 2 } | retry 1", session: session).last?.hasPrefix("0 failed: flaky failure 2 of 2") == true)
    }

    @Test("flaky counts across flatMap's inner pipelines, catch's replacement and a binding's uses")
    func flakyEverywhere() {
        #expect(run("from [1, 2, 3] | flatMap { just $0 | asyncMap flaky 2 | replaceError 0 }")
            == ["0 subscribed", "0 value 0", "0 value 0", "0 value 3", "0 finished"])
        #expect(run("fail \"x\" | catch { just 1 | asyncMap flaky 1 } | retry 1") == ["0 subscribed", "0 value 1", "0 finished"])
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("let f = just 7 | asyncMap flaky 1\nf | catch { f }", session: session) == ["0 subscribed", "0 value 7", "0 finished"])
    }

    @Test("timeout without customError finishes, as Combine's does; with customError it fails with the message")
    func timeout() {
        #expect(run("never | timeout 50ms") == ["0 subscribed", "50 finished"])
        #expect(run("never | timeout 50ms customError: \"too slow\"") == ["0 subscribed", "50 failed: too slow"])
        // A plain timeout adds no failure: retry after it has no effect, and the type says Never.
        #expect(diagnose("never | timeout 50ms | retry 1").map(\.id.name) == ["retry-has-no-effect"])
        #expect(diagnose("never | timeout 50ms customError: \"x\" | retry 1").isEmpty)
    }

    @Test("a trailing closure stands for the labelled closure argument, as in Swift", arguments: [
        ("from 1...6 | first { $0 > 3 }", ["0 value 4"]),
        ("from 1...6 | last { $0 < 3 }", ["0 value 2"]),
        ("from 1...6 | drop { $0 < 5 }", ["0 value 5", "0 value 6"]),
        ("from 1...6 | prefix { $0 < 3 }", ["0 value 1", "0 value 2"]),
        ("from 1...6 | contains { $0 > 5 }", ["0 value true"]),
        ("from 1...6 | allSatisfy { $0 > 0 }", ["0 value true"]),
        ("from [3, 1, 2] | min { $0 > $1 }", ["0 value 3"]),
        ("from [3, 1, 2] | max by: { $0 > $1 }", ["0 value 1"]),
        ("from [1, 2, 4, 5] | removeDuplicates { $1 == $0 + 1 }", ["0 value 1", "0 value 4"]),
        ("from 1...6 | first where: { $0 > 3 }", ["0 value 4"]),
    ])
    func trailingClosures(_ text: String, _ values: [String]) {
        #expect(run(text) == ["0 subscribed"] + values + ["0 finished"])
    }

    @Test("an operation the operand kinds cannot do is a static error at its position, naming both kinds")
    func staticKindErrors() throws {
        let d = diagnose("just \"x\" | map { $0 * 2 }")
        #expect(d.map(\.message) == ["cannot apply '*' to String and Int"])
        #expect(d.first?.id.name == "impossible-operation")
        #expect(d.first?.location.column == 18)
        #expect(diagnose("from [1, 2] | filter { $0 > \"a\" }").map(\.message) == ["cannot apply '>' to Int and String"])
        #expect(diagnose("just true | map { -$0 }").map(\.message) == ["cannot apply '-' to Bool"])
        #expect(diagnose("just 1 | asyncMap { $0 && true }").map(\.message) == ["cannot apply '&&' to Int and Bool"])
        #expect(diagnose("just 1 | flatMap { just $0 | map { $0 + \"s\" } }").map(\.message) == ["cannot apply '+' to Int and String"])
        // What cannot be known stays a run-time failure: a subject's values, mixed arrays.
        #expect(diagnose("let s = subject\ns | map { $0 * 2 }").isEmpty)
        #expect(diagnose("from [1, \"a\"] | map { $0 * 2 }").isEmpty)
        #expect(diagnose("from [\"a\"] | map { $0 + \"b\" } | map { \"\\($0)\" }").isEmpty)
    }
}
