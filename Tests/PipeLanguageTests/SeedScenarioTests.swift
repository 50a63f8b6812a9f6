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
        #expect(
            run("from [1, 2, 3] | flatMap { just $0 | asyncMap flaky 2 | replaceError 0 }")
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

    @Test(
        "a trailing closure stands for the labelled closure argument, as in Swift",
        arguments: [
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

    @Test("print \"label\" writes Combine's own lines on the timeline, at their times")
    func printLines() {
        #expect(
            run("interval 100ms | take 2 | print \"ticks\"") == [
                "0 print 2 ticks: receive subscription: (Output)", "0 subscribed", "0 print 2 ticks: request unlimited",
                "100 print 2 ticks: receive value: (0)", "100 value 0",
                "200 print 2 ticks: receive value: (1)", "200 value 1", "200 print 2 ticks: receive finished", "200 finished",
            ])
        #expect(run("fail \"boom\" | print").contains("0 print 1 receive error: (boom (at test:1:1))"))
        #expect(run("just 1 | print \"one\" | take 1").contains("0 print 1 one: receive value: (1)"))
    }

    @Test("handleEvents hooks print their message when they run: the query starts on subscription and stops on cancel")
    func queryLifecycle() {
        let events = run(
            """
            let heartRate = interval 100ms | handleEvents receiveSubscription: "start query" receiveCancel: "stop query"
            heartRate | take 2 | map { 60 + $0 }
            """)
        #expect(
            events == [
                "0 hook 1 start query", "0 subscribed", "100 value 60", "200 hook 1 stop query", "200 value 61", "200 finished",
            ])
        #expect(
            run("from [1, 2] | handleEvents receiveOutput: { \"got \\($0)\" } receiveCompletion: { \"done: \\($0)\" } receiveRequest: { \"asked \\($0)\" }")
                == [
                    "0 subscribed", "0 hook 1 asked unlimited", "0 hook 1 got 1", "0 value 1", "0 hook 1 got 2", "0 value 2",
                    "0 hook 1 done: finished", "0 finished",
                ])
    }

    @Test("hooks are checked: a misspelt hook is suggested, a hook must be a message or a closure")
    func hookDiagnostics() throws {
        let d = diagnose("just 1 | handleEvents recieveOutput: \"x\"")
        #expect(d.map(\.id.name) == ["unknown-label"])
        #expect(d.first?.help == "did you mean 'receiveOutput:'?")
        let fix = try #require(d.first?.fixIts.first)
        #expect(fix.applied(to: "just 1 | handleEvents recieveOutput: \"x\"") == "just 1 | handleEvents receiveOutput: \"x\"")
        #expect(diagnose("just 1 | handleEvents receiveOutput: 3").map(\.id.name) == ["wrong-argument"])
        #expect(diagnose("just 1 | handleEvents receiveOutput: { $1 }").map(\.id.name) == ["dollar-out-of-range"])
    }

    @Test("a future says when it starts and when it is fulfilled; deferred makes one per subscription, at subscription")
    func futureEagerness() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let notes = Lock<[String]>([])
        session.runtime.onNote { text in notes.withLock { $0.append(text) } }
        _ = run("let f = future delay 200 value 42", session: session)
        #expect(notes.withLock { $0 } == ["future started: it runs now, before anyone subscribes"])
        #expect(
            run("let d = deferred { future delay 200 value 42 }\ntimer 100ms | flatMap { d | merge (d) }", session: session) == [
                "0 subscribed",
                "100 note 0 future started: made now, by the closure around it, for this subscription",
                "100 note 0 future started: made now, by the closure around it, for this subscription",
                "300 note 0 future fulfilled with 42 after 200ms", "300 value 42",
                "300 note 0 future fulfilled with 42 after 200ms", "300 value 42", "300 finished",
            ])
        // The bound future was fulfilled at 200 ms, outside any run.
        #expect(notes.withLock { $0 }.last == "future fulfilled with 42 after 200ms")
    }

    @Test("a pipeline closure chooses a publisher per value: a binding, a source, a parenthesised pipeline, nested")
    func choosingPublishers() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(
            run("let heartRate = interval 100ms | map { 60 + $0 } | take 2\nfrom [true, false] | flatMap { $0 ? heartRate : empty }", session: session)
                == ["0 subscribed", "100 value 60", "200 value 61", "200 finished"])
        #expect(run("from [1, 2] | flatMap { $0 > 1 ? (from [$0, $0]) : (just 0) }") == ["0 subscribed", "0 value 0", "0 value 2", "0 value 2", "0 finished"])
        #expect(
            run("from [1, 2, 3] | flatMap { $0 > 2 ? (just \"big\") : $0 > 1 ? (just \"mid\") : empty }")
                == ["0 subscribed", "0 value \"mid\"", "0 value \"big\"", "0 finished"])
        #expect(run("fail \"x\" | catch { $0 == \"x\" ? (just 1) : (just 2) }") == ["0 subscribed", "0 value 1", "0 finished"])
    }

    @Test("the static pass infers the union of both branches; a condition over known kinds cannot fail")
    func choiceTypes() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(try session.types(of: "from [1, 2] | flatMap { $0 > 1 ? (just 1) : (just 2) }").get().type.description == "AnyPublisher<Int, Never>")
        // Mixed kinds have no faithful Swift form: `:type` shows the static pass's union and says so.
        let mixed = try session.types(of: "from [1, 2] | flatMap { $0 > 1 ? (just \"a\") : (just 2) }").get()
        #expect(mixed.type.description == "AnyPublisher<Value, Never>")
        #expect(mixed.noFaithfulSwiftForm != nil)
        #expect(try session.types(of: "from [1, 2] | flatMap { $0 > 1 ? (just 1) : (fail \"no\") }").get().type.description == "AnyPublisher<Int, Error>")
    }

    @Test("choices are checked: a branch that is not a publisher, a condition that is not a Bool, an unknown name")
    func choiceDiagnostics() {
        #expect(diagnose("from [1] | flatMap { $0 > 0 ? (just 1) : 5 }").map(\.id.name) == ["branch-not-publisher"])
        #expect(diagnose("from [1] | flatMap { $0 + 1 ? (just 1) : empty }").map(\.message) == ["the condition of ?: must be a Bool, got Int"])
        #expect(diagnose("from [true] | flatMap { $0 ? hr : empty }").map(\.message) == ["unknown source or binding 'hr'"])
        #expect(diagnose("from [1] | map { $0 > 0 ? (just 1) : empty }").map(\.id.name) == ["wrong-argument"])
        // A value ternary in an expression closure is unchanged.
        #expect(run("from [1, 2] | map { $0 > 1 ? \"a\" : \"b\" }") == ["0 subscribed", "0 value \"b\"", "0 value \"a\"", "0 finished"])
    }
}
