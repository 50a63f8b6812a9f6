import Testing
@testable import PipeLanguage

/// What the static pass says a stage emits when it changes or mixes kinds. The kinds feed the
/// infallibility proof (a closure proved safe for Ints runs over a non-throwing operator), `:type`
/// and `:swift`, so a kind that is wrong is a crash, a lie and Swift that does not compile.
///
/// Where upstream's values and another's meet in one output (`append`, `prepend`, `merge`,
/// `replaceError`, `replaceEmpty`, `catch`), Combine's signatures need one Output type: Apple's
/// documentation of `append(_:)` ("Publishers.Concatenate … where P.Output == Output"),
/// `merge(with:)`, `replaceError(with: Output)`, `replaceEmpty(with: Output)` and `catch` (the
/// new publisher's Output must equal upstream's). So kinds no one Swift type holds are a static
/// error, and kinds one type can hold (Int and Double, any kind and nil, `Value`) join as `Value`.
@Suite("The kind each operator emits, over each input kind")
struct KindTableTests {
    /// The pipeline's output kind as the checker infers it (what the infallibility pass and the
    /// run trust; `:type` shows the Swift `:swift` writes, see `SwiftTranslationTests`), or the
    /// error's id.
    static func outcome(_ text: String) -> String {
        let (statements, diagnostics) = Session(runtime: Runtime(clock: .virtual)).compile(text, file: "<kinds>")
        if let error = diagnostics.first(where: { $0.severity == .error }) { return error.id.name }
        guard let checked = statements.first?.checked else { return "no pipeline" }
        return checked.shape.kind.swiftName
    }

    static let mix = "kinds-do-not-join"

    @Test(
        "operator × input kinds → output kind or static error",
        arguments: [
            // append / prepend a value: the same kind, or kinds one type holds, or an error.
            ("just 1 | append 2", "Int"),
            ("just 1 | append \"a\"", mix),
            ("just \"a\" | append 1", mix),
            ("just 1 | append true", mix),
            ("just 1 | append 2.5", "Value"),
            ("just 1 | append nil", "Value"),
            ("just nil | append 1", "Value"),
            ("just [1] | append [2]", "[Int]"),
            ("just [1] | append [\"a\"]", mix),
            ("just [1] | append 1", mix),
            ("empty | append \"a\"", "String"),
            ("currentValue 0 | append \"a\"", "Value"),
            ("just 1 | prepend \"a\"", mix),
            ("just \"a\" | prepend \"b\"", "String"),
            ("just 1 | prepend nil", "Value"),
            // append / prepend / merge a publisher.
            ("just 1 | append (just \"a\")", mix),
            ("just 1 | append (just 2)", "Int"),
            ("just 1 | append (empty)", "Int"),
            ("just 1 | prepend (just true)", mix),
            ("just 1 | merge (just \"a\")", mix),
            ("just 1 | merge (just 2.5)", "Value"),
            ("just 1 | merge (currentValue 0)", "Value"),
            ("marble \"-a-\" | merge (marble \"-1-\")", mix),
            // failures and emptiness replaced by a value or a publisher.
            ("just 1 | asyncMap flaky 1 | replaceError \"x\"", mix),
            ("just 1 | asyncMap flaky 1 | replaceError 0", "Int"),
            ("fail \"x\" | replaceError \"y\"", "String"),
            ("just 1 | asyncMap flaky 1 | catch { just $0 }", mix),
            ("fail \"x\" | catch { just $0 }", "String"),
            ("just 1 | replaceEmpty \"a\"", mix),
            ("empty | replaceEmpty 0", "Int"),
            ("just 1 | replaceEmpty 2", "Int"),
            ("just nil | replaceNil 5", "Int"),
            ("from [1, nil] | replaceNil 0", "Value"),
            // operators that make a new kind.
            ("just 1 | asyncMap delay 10 { \"a\" }", "String"),
            ("just 1 | asyncMap delay 10", "Int"),
            ("just 1 | asyncMap { $0 > 0 }", "Bool"),
            ("just 1 | map { \"x\\($0)\" }", "String"),
            ("just 1 | map { $0 > 0 ? 1 : \"a\" }", "Value"),
            ("just 1 | scan \"\" { $0 + \"a\" }", "String"),
            ("just 1 | scan 0 { \"a\" }", "Value"),
            ("just 1 | ignoreOutput", "Never"),
            ("just 1 | ignoreOutput | append \"a\"", "String"),
            ("just 1 | collect", "[Int]"),
            ("just \"a\" | count", "Int"),
            ("just 1 | zip (just \"a\")", "[Value]"),
            ("just 1 | combineLatest (just 2)", "[Int]"),
            ("just 1 | flatMap { just \"a\" }", "String"),
            ("just 1 | measureInterval", "Double"),
            ("just 1 | contains 1", "Bool"),
        ])
    func kinds(_ text: String, _ expected: String) {
        #expect(Self.outcome(text) == expected, "\(text)")
    }

    @Test("the static error names both kinds, the argument, and how to make them agree")
    func message() throws {
        let d = try #require(diagnose("just 5 | append \"a\" | filter { $0 > 1 }").first)
        #expect(d.id.name == Self.mix)
        #expect(d.message == "'append' would mix String values into a publisher of Int values")
        #expect(d.offset == 16 && d.length == 3)
        #expect(d.help?.contains("map { String($0) }") == true)
        #expect(d.notes.contains { $0.message.contains("Combine's .append(_:) needs one Output type") })
    }

    @Test(
        "the issue's pipelines no longer trap: an error before the run, or a failure with its position",
        arguments: [
            ("just 5 | append \"a\" | filter { $0 > 1 }", "static"),
            ("just 5 | prepend \"a\" | filter { $0 > 1 }", "static"),
            ("just 5 | asyncMap delay 10 { \"a\" } | filter { $0 > 1 }", "static"),
            ("just 1 | filter { $0 > 5 } | replaceEmpty \"a\" | map { $0 % 2 == 0 }", "static"),
            ("just 5 | append nil | filter { $0 > 1 }", "failed: cannot compare nil with Int 1"),
            ("from [1, nil] | replaceNil \"a\" | filter { $0 > 0 }", "failed: cannot compare String \"a\" with Int 0"),
        ])
    func noTrap(_ text: String, _ expected: String) {
        let errors = diagnose(text).filter { $0.severity == .error }
        if expected == "static" {
            #expect(!errors.isEmpty, "\(text)")
        } else {
            #expect(errors.isEmpty)
            let events = run(text)
            #expect(events.last?.hasPrefix("0 \(expected)") == true, "\(events)")
        }
    }
}

/// The second half of the fix: a proof made at check time never traps at run time. A stage whose
/// checked input kind is made to lie (Ints, while a String arrives) runs its closure over the
/// non-throwing operator; the run must end as a failure with the closure's position.
@Suite("A wrong proof fails the run, never the process")
struct WrongProofTests {
    /// Runs `text` with stage `index`'s input kind replaced by `kind`; the events, as `run` gives them.
    static func runLying(_ text: String, stage index: Int, kind: ValueKind) throws -> [String] {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "test")
        #expect(diagnostics.isEmpty)
        guard case .success(.run(let honest))? = statements.first.map(session.execute) else {
            Issue.record("not a pipeline")
            return []
        }
        var checked = honest.checked
        checked.stages[index].input = Shape(kind: kind, canFail: false)
        let pipeline = Pipeline(
            text: honest.text, location: honest.location, isBackground: false, checked: checked, source: honest.source,
            runtime: honest.runtime, bindings: honest.bindings)
        let recorder = Recorder()
        let c = pipeline.start(trace: false) { event in
            let line = if case .failed(let e) = event { "failed: \(e)" } else { describe(event) }
            recorder.events.withLock { $0.append(line) }
            switch event {
            case .finished, .failed, .cancelled: recorder.done.store(true, ordering: .sequentiallyConsistent)
            default: break
            }
        }
        session.runtime.driveVirtualTime { recorder.done.load(ordering: .sequentiallyConsistent) }
        withExtendedLifetime(c) {}
        return recorder.events.withLock { $0 }
    }

    @Test(
        "filter, first, map and compactMap proved for Ints meet a String: failed, with the closure's position",
        arguments: [
            ("from [5, \"a\", 7] | filter { $0 > 1 }", ["value 5", "failed: cannot compare String \"a\" with Int 1 (at test:1:29)"]),
            ("from [\"a\", 5] | first { $0 > 1 }", ["failed: cannot compare String \"a\" with Int 1 (at test:1:25)"]),
            ("from [5, \"a\", 7] | map { $0 % 2 == 0 }", ["value false", "failed: cannot apply '%' to String \"a\" and Int 2 (at test:1:26)"]),
            ("from [5, \"a\"] | compactMap { $0 / 2 }", ["value 2", "failed: cannot apply '/' to String \"a\" and Int 2 (at test:1:30)"]),
        ])
    func wrongProof(_ text: String, _ expected: [String]) throws {
        let events = try Self.runLying(text, stage: 1, kind: .int)
        #expect(Array(events.dropFirst()) == expected, "\(events)")
    }
}

/// Generated pipelines that mix kinds, each followed by consumers whose closures the static pass
/// may prove infallible for the kind it infers: each is refused before it runs, or runs to exactly
/// one terminal event (a crash would end the test process).
@Suite("Generated kind-mixing pipelines")
struct GeneratedKindMixingTests {
    static let sources = [
        "just 5", "just \"a\"", "just true", "just 2.5", "just nil", "just [1]", "from [1, \"a\"]", "empty",
        "marble \"-a-1-|\"", "from [0] | merge (currentValue 0 | take 1)", "just 1 | asyncMap flaky 1",
    ]
    static let mixers = ["append", "prepend", "merge", "replaceEmpty", "replaceError", "replaceNil", "asyncMap delay 1", "catch", "scan"]
    static let arguments = ["3", "\"b\"", "false", "1.5", "nil", "[2]"]
    static let consumers = [
        "filter { $0 > 1 }", "map { $0 % 2 == 0 }", "first { $0 > 0 }", "compactMap { $0 / 2 }",
        "map { $0.count }", "filter { $0 == \"a\" }", "map { -$0 }", "allSatisfy { $0 > 0 }",
    ]

    static func stage(_ mixer: String, _ argument: String) -> String {
        switch mixer {
        case "merge": "merge (just \(argument))"
        case "append" where argument.hasPrefix("["), "prepend" where argument.hasPrefix("["): "\(mixer) (just \(argument))"
        case "asyncMap delay 1": "asyncMap delay 1 { \(argument) }"
        case "catch": "catch { just \(argument) }"
        case "scan": "scan \(argument) { $1 }"
        default: "\(mixer) \(argument)"
        }
    }

    @Test("every generated pipeline is refused or ends with one terminal event")
    func generated() {
        var refused = 0
        var ran = 0
        for source in Self.sources {
            for mixer in Self.mixers {
                for argument in Self.arguments {
                    for consumer in Self.consumers {
                        let text = "\(source) | \(Self.stage(mixer, argument)) | \(consumer)"
                        let session = Session(runtime: Runtime(clock: .virtual))
                        let (statements, diagnostics) = session.compile(text, file: "g")
                        if diagnostics.contains(where: { $0.severity == .error }) {
                            refused += 1
                            continue
                        }
                        guard let statement = statements.first, case .success(.run) = session.execute(statement) else { continue }
                        let events = run(text)
                        let terminals = events.filter { $0.contains(" finished") || $0.contains(" failed") || $0.contains(" cancelled") }
                        #expect(terminals.count == 1, "\(text): \(events)")
                        ran += 1
                    }
                }
            }
        }
        // 11 sources × 9 mixers × 6 arguments × 8 consumers = 4,752 pipelines.
        #expect(refused + ran == 4_752)
        #expect(ran > 500 && refused > 500, "ran \(ran), refused \(refused)")
    }
}
