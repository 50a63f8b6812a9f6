import Testing

@testable import PipeLanguage

/// The Swift `:swift` prints for a pipeline, with a fresh session (or `session`).
private func swift(_ text: String, session: Session = Session(runtime: Runtime(clock: .virtual))) -> String {
    switch session.swiftTranslation(of: text) {
    case .success(let swift): swift.joined
    case .failure(let d): "error: \(d.message)"
    }
}

private let queue = """
    // MARK: helper queue
    /// Where time-based operators run: a queue of our own (nothing serves the main queue here).
    let queue = DispatchQueue(label: "plumb")
    """

private let pipeError = """
    // MARK: helper pipeError
    /// A failure carrying the language's message (`fail "boom"`, `timeout … customError:`).
    struct PipeError: Error, CustomStringConvertible {
        let description: String
        init(_ message: String) { description = message }
    }
    """

@Suite struct SwiftTranslationTests {
    @Test(
        "each pipeline becomes Combine code typed by the static pass's kinds",
        arguments: [
            ("from [1, 2, 3] | map { $0 * 10 }", "[1, 2, 3].publisher.map { $0 * 10 }"),
            ("from 1...6 | filter { $0 % 2 == 0 } | map { \"n=\\($0)\" }", "(1...6).publisher.filter { $0 % 2 == 0 }.map { \"n=\\($0)\" }"),
            ("from 1...4 | scan 0 { $0 + $1 }", "(1...4).publisher.scan(0) { $0 + $1 }"),
            ("from [1, 2, 3] | map { $0 > 1 ? \"big\" : \"small\" }", "[1, 2, 3].publisher.map { $0 > 1 ? \"big\" : \"small\" }"),
            ("from [3, -1] | map { min(abs($0), 2) }", "[3, -1].publisher.map { min(abs($0), 2) }"),
            ("just \"abc\" | map { $0.count + 1.5 }", "Just(\"abc\").map { Double($0.count) + 1.5 }"),
            (
                "from [1, 2] | flatMap maxPublishers: 1 { from [$0, $0 * 10] }",
                "[1, 2].publisher.flatMap(maxPublishers: .max(1)) { value in [value, value * 10].publisher }"
            ),
            ("from [1, -1, 2] | compactMap { $0 > 0 ? $0 : nil }", "[1, -1, 2].publisher.compactMap { $0 > 0 ? $0 : nil }"),
            ("from [1, 2] | zip (from [\"a\", \"b\"])", "[1, 2].publisher.zip([\"a\", \"b\"].publisher)"),
            ("from [1, 2] | merge (just 3)", "[1, 2].publisher.merge(with: Just(3))"),
            ("from [1, 2] | append (empty)", "[1, 2].publisher.append(Empty<Int, Never>())"),
            ("from 1...3 | reduce 0 { $0 + 1 }", "(1...3).publisher.reduce(0) { v0, _ in v0 + 1 }"),
        ])
    func pipelines(text: String, expected: String) {
        #expect(swift(text) == expected)
    }

    @Test("catch, retry and replaceError: the failure's message is $0 inside catch")
    func errors() {
        #expect(
            swift("fail \"boom\" | catch { just \"recovered from \\($0)\" }") == pipeError + "\n\n"
                + "Fail<String, Error>(error: PipeError(\"boom\"))\n    .catch { error in Just(\"recovered from \\(String(describing: error))\") }")
        #expect(swift("fail \"boom\" | replaceError -1") == pipeError + "\n\nFail<Int, Error>(error: PipeError(\"boom\")).replaceError(with: -1)")
    }

    /// Found by check-swift when workshop 09 gained `let down = fail "down"` then `… | append down`:
    /// the binding was `Fail<Never, Error>` and Combine's `append` wants one Output (the program
    /// did not build). A binding of no values takes the kind of the pipeline that uses it.
    @Test("a binding that sends no value takes the Output of the pipeline it is appended to")
    func neverBinding() throws {
        let script = "let down = fail \"down\"\njust \"ok\" | append down\n"
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: script, file: "n.pipe").get()
        #expect(program.contains("let down = Fail<Never, Error>(error: PipeError(\"down\"))"), "\(program)")
        #expect(program.contains(".append(down.map { never -> String in switch never {} })"), "\(program)")
    }

    /// Workshop 16's solution: a binding of no values is the source and `replaceEmpty` gives the
    /// values' type (check-swift failed to build it: `String` is not `Never`).
    @Test("a source of no values before replaceEmpty becomes the value's type")
    func neverSource() throws {
        let script = "let unknown = marble \"-|\"\nunknown | replaceEmpty \"nobody\"\n"
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: script, file: "n.pipe").get()
        #expect(program.contains("unknown.map { never -> String in switch never {} }.replaceEmpty(with: \"nobody\")"), "\(program)")
    }

    @Test("asyncMap flaky N is a helper class that fails its first N calls; retry resubscribes to it")
    func flaky() {
        let code = swift("just 5 | asyncMap flaky 2 | retry 3")
        #expect(code.hasPrefix(pipeError + "\n\n// MARK: helper flaky\n"))
        #expect(
            code.hasSuffix(
                """
                let flaky1 = Flaky(failing: 2)
                Just(5).asyncMap { value in try flaky1(value) }.retry(3)
                """))
    }

    @Test("asyncMap delay sleeps with Task.sleep; interval and delay use Reactive's schedulers on a queue of our own")
    func time() {
        #expect(
            swift("just 1 | asyncMap delay 100 { $0 * 2 }") == """
                Just(1)
                    .asyncMap { value in
                        try await Task.sleep(for: .milliseconds(100))
                        return value * 2
                    }
                """)
        #expect(
            swift("interval 100ms | take 3 | delay 1s") == queue + "\n\n"
                + "Publishers.interval(.milliseconds(100), scheduler: queue)\n    .prefix(3)\n    .delay(for: .seconds(1), scheduler: queue)")
        #expect(
            swift("never | timeout 100ms customError: \"slow\"") == pipeError + "\n\n" + queue + "\n\n"
                + "Empty<Never, Never>(completeImmediately: false)\n    .setFailureType(to: Error.self)\n    .timeout(.milliseconds(100), scheduler: queue, customError: { PipeError(\"slow\") })"
        )
    }

    @Test("a choice of publishers is a ternary of erased publishers with one failure type")
    func choice() {
        #expect(
            swift("from [true, false] | flatMap { $0 ? (just 1) : empty }") == """
                [true, false].publisher
                    .flatMap { value -> AnyPublisher<Int, Never> in value ? Just(1).eraseToAnyPublisher() : Empty<Int, Never>().eraseToAnyPublisher() }
                """)
    }

    @Test("a subject is PassthroughSubject<Int, Error> when every send in the script is an Int; bindings are lets")
    func program() throws {
        let script = """
            let s = subject
            let doubled = s | map { $0 * 2 }
            doubled | take 2 &
            s.send 1
            s.send 2
            expect values [2, 4]
            """
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: script, file: "s.pipe").get()
        #expect(program.hasPrefix("// Generated by plumb swift --program from s.pipe.\nimport Foundation\nimport Reactive\n"))
        let body = String(program[program.range(of: "// MARK: - Pipelines\n")!.upperBound...])
        #expect(
            body == """

                // let s = subject
                let s = PassthroughSubject<Int, Error>()

                // let doubled = s | map { $0 * 2 }
                let doubled = s.map { $0 * 2 }

                // doubled | take 2 &
                let job1 = start(doubled.prefix(2), job: 1)

                // s.send 1
                s.send(1)

                // s.send 2
                s.send(2)

                // expect values [2, 4]

                // The background jobs finish (or are left) before the program ends.
                waitForJobs()

                """)
    }

    @Test(":swift prints a statement to paste: import Reactive, the chain, a printing sink stored in a cancellable")
    func pasteableStatement() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(
            try session.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }", form: .statement).get().file == """
                import Reactive

                let cancellable = [1, 2, 3].publisher.map { $0 * 10 }
                    .sink { print($0) }
                """)
        // A publisher that can fail has no `sink(receiveValue:)` in Combine (Apple's reference:
        // it exists only where Failure == Never): the completion is printed too.
        let failing = try session.swiftTranslation(of: "fail \"boom\" | map { $0 }", form: .statement).get().file
        #expect(failing.hasPrefix("import Foundation\nimport Reactive\n"), "\(failing)")
        #expect(failing.hasSuffix(".sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })"), "\(failing)")
        let values = try session.swiftTranslation(of: "just 1 | values", form: .statement).get().file
        #expect(values.contains("for try await value in Just(1).values {\n    print(value)\n}"), "\(values)")
    }

    @Test("a script as Swift code: statements in order, the subject typed by its sends, no runner")
    func script() throws {
        let code = try Session(runtime: Runtime(clock: .virtual)).swiftScript(of: "let s = subject\ns | map { $0 * 2 }\ns.send 1\n", file: "s.pipe").get()
        #expect(
            code == """
                // let s = subject
                let s = PassthroughSubject<Int, Error>()

                // s | map { $0 * 2 }
                s.map { $0 * 2 }

                // s.send 1
                s.send(1)

                """)
    }

    @Test("a rebinding gets a new Swift name; the session's bindings are in scope for :swift")
    func bindings() throws {
        let script = "let d = just 1\nlet d = d | map { $0 + 1 }\nd\n"
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: script, file: "d.pipe").get()
        #expect(program.contains("let d = Just(1)\n"))
        #expect(program.contains("let d2 = d.map { $0 + 1 }\n"))
        #expect(program.contains("run(d2)\n"))
        let session = Session(runtime: Runtime(clock: .virtual))
        _ = session.compile("let t = from [1, 2]", file: "<repl>").statements.map(session.execute)
        #expect(swift("t | map { $0 + 1 }", session: session) == "t.map { $0 + 1 }")
    }

    @Test("where Swift has no faithful form, a comment says so at that spot; the program skips the statement")
    func unfaithful() throws {
        #expect(swift("from [1, \"a\"] | map { $0 }") == "[1, \"a\"].publisher /* no faithful Swift form: values of mixed kinds */.map { $0 }")
        // todo has a faithful form: a failure at its place, as in the language.
        #expect(
            swift("from [1, 2] | todo").hasSuffix(
                "[1, 2].publisher.tryMap { _ -> Int in throw PipeError(\"this is where your answer goes\") } /* todo */"))
        let program = try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: "from [1, \"a\"]\n", file: "m.pipe").get()
        #expect(program.contains("\n// no faithful Swift form: values of mixed kinds (Swift's Output must be one type)\n// run("))
        #expect(program.contains("print(\"skipped: values of mixed kinds (Swift's Output must be one type)\")"))
    }

    @Test("a marble string becomes a helper that plays its frames on the queue")
    func marble() {
        let code = swift("marble \"-a-(bc)-#\" frame: 50ms error: \"boom\"")
        #expect(code.contains("// MARK: helper marble\n"))
        #expect(
            code.hasSuffix(
                """

                marble(
                    [[], [.value("a")], [], [.value("b"), .value("c")], [], [.failed("boom")]] as [[MarbleEvent<String>]],
                    frame: 50000000)
                """)
                || code.hasSuffix(
                    "\n\nmarble([[], [.value(\"a\")], [], [.value(\"b\"), .value(\"c\")], [], [.failed(\"boom\")]] as [[MarbleEvent<String>]], frame: 50000000)"
                ))
    }

    @Test("the values and async terminals consume with for try await and async()")
    func terminals() {
        #expect(swift("from 1...3 | values") == "for try await value in (1...3).publisher.values {\n    print(value)\n}")
        #expect(swift("just 1 | async") == "let value = try await Just(1).async()")
    }

    @Test("more than one pipeline, or errors, are diagnostics")
    func errorsAreDiagnostics() {
        #expect(swift("just 1\njust 2") == "error: :swift takes one pipeline")
        #expect(swift("just 1 | retyr 3").hasPrefix("error: "))
        #expect(throws: SwiftProgramErrors.self) { try Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: "just 1 | retyr 3", file: "x").get() }
    }

    @Test("every catalog entry has a Swift translation and its example translates", arguments: Catalog.entries.map(\.name))
    func everyEntry(name: String) throws {
        let entry = try #require(Catalog.entry(named: name))
        #expect(entry.swift != nil)
        let program = Session(runtime: Runtime(clock: .virtual)).swiftProgram(of: entry.example + "\n", file: name)
        #expect((try? program.get()) != nil)
        if case .success(let text) = program { #expect(!text.contains("has no Swift translation")) }
    }
}
