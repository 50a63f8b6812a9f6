import Testing

@testable import PipeLanguage

/// `Session` answers with data (`types(of:)`, `bindingSummaries()`, `swiftTranslation(of:form:)`,
/// `SourceOutline`); the shell and the language server format it. These check the values and
/// the positions, in process.
@Suite struct SessionAnswersTests {
    private func session() -> Session { Session(runtime: Runtime(clock: .virtual)) }

    @Test("types(of:): each stage's text, range and type after it; the terminal is not a stage")
    func stageTypes() throws {
        let marked = MarkedText("1️⃣just 1 |\n  2️⃣map { $0 == 1 } | 3️⃣sink")
        let types = try session().types(of: marked.text).get()
        #expect(types.stages.map(\.text) == ["just 1", "map { $0 == 1 }"])
        #expect(types.stages.map(\.range.offset) == [marked[1], marked[2]])
        #expect(marked[3] == 29)
        #expect(types.stages.map(\.range.length) == [6, 15])
        #expect(types.stages.map(\.range.location) == [SourceLocation(file: "<type>", line: 1, column: 1), SourceLocation(file: "<type>", line: 2, column: 3)])
        #expect(types.stages.map(\.type) == [PublisherType(output: "Int", canFail: false), PublisherType(output: "Bool", canFail: false)])
        #expect(types.type == PublisherType(output: "Bool", canFail: false))
        #expect(types.noFaithfulSwiftForm == nil && types.trappingStages.isEmpty)
    }

    @Test("a range's offset and length count UTF-8 bytes, its column Unicode scalars")
    func unicodePositions() throws {
        let marked = MarkedText("just \"é😀\" | 1️⃣map { $0 + \"!\" }")
        let map = try #require(try session().types(of: marked.text).get().stages.last)
        #expect(map.range.offset == marked[1])
        #expect(map.range.offset == 16)
        #expect(map.range.location.column == 13)
        #expect(map.type == PublisherType(output: "String", canFail: false))
    }

    @Test("where the language fails and the Swift traps, the stage says so; without a faithful form, the static pass's types and why")
    func trapsAndUnfaithful() throws {
        let s = session()
        let traps = try s.types(of: "from [1, 2] | map { $0 * 10 } | filter { $0 > 0 }").get()
        #expect(traps.stages.map(\.failsWhereSwiftTraps) == [false, true, false])
        #expect(traps.trappingStages.map(\.text) == ["map { $0 * 10 }"])
        #expect(traps.type.description == "AnyPublisher<Int, Never>")
        let mixed = try s.types(of: "just 1 | append 2.5").get()
        #expect(mixed.noFaithfulSwiftForm == "values of mixed kinds (Swift's Output must be one type)")
        #expect(mixed.type == PublisherType(output: "Value", canFail: false))
        let pair = try s.types(of: "from [1, 2] | zip (from [\"a\", \"b\"])").get()
        #expect(pair.type.output == "(Int, String)")
    }

    @Test("types(of:) refuses what is not one pipeline, with the id")
    func typesErrors() {
        let s = session()
        guard case .failure(let two) = s.types(of: "just 1\njust 2") else { Issue.record("no error"); return }
        #expect(two.id.code == "E406")
        _ = s.execute(s.compile("let x = subject", file: "t").statements[0])
        guard case .failure(let send) = s.types(of: "x.send 1") else { Issue.record("no error"); return }
        #expect(send.id.code == "E407")
        guard case .failure(let bad) = s.types(of: "just 1 | retyr") else { Issue.record("no error"); return }
        #expect(bad.id.code == "E302" && bad.location.column == 10)
    }

    @Test("bindingSummaries: name, pipeline text, type, subject or not, and where the name is, in first-bound order")
    func bindings() throws {
        let s = session()
        let marked = MarkedText("let 1️⃣ticks = interval 100ms | take 5\nlet 2️⃣s = subject")
        for statement in s.compile(marked.text, file: "<repl>", firstLine: 3).statements { _ = s.execute(statement) }
        var summaries = s.bindingSummaries()
        #expect(summaries.map(\.name) == ["ticks", "s"])
        #expect(summaries.map(\.text) == ["interval 100ms | take 5", "subject"])
        #expect(summaries.map(\.type.description) == ["AnyPublisher<Int, Never>", "AnyPublisher<Value, Error>"])
        #expect(summaries.map(\.isSubject) == [false, true])
        #expect(summaries.map(\.nameRange.offset) == [marked[1], marked[2]])
        #expect(summaries.map(\.nameRange.length) == [5, 1])
        #expect(
            summaries.map(\.nameRange.location) == [SourceLocation(file: "<repl>", line: 3, column: 5), SourceLocation(file: "<repl>", line: 4, column: 5)])
        // A rebinding keeps its place and shows its new pipeline and where it was bound again.
        for statement in s.compile("let ticks = just \"a\"", file: "<repl>", firstLine: 9).statements { _ = s.execute(statement) }
        summaries = s.bindingSummaries()
        #expect(summaries.map(\.name) == ["ticks", "s"])
        #expect(summaries[0].type.output == "String" && summaries[0].nameRange.location.line == 9)
    }

    @Test("swiftTranslation: the code, the helpers it needs, the imports, and why there is no faithful form")
    func swift() throws {
        let s = session()
        let plain = try s.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }").get()
        #expect(plain.code == ["[1, 2, 3].publisher.map { $0 * 10 }"])
        #expect(plain.helpers.isEmpty && plain.imports == ["Reactive"] && plain.isFaithful)
        let statement = try s.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }", form: .statement).get()
        #expect(statement.code == ["let cancellable = [1, 2, 3].publisher.map { $0 * 10 }\n    .sink { print($0) }"])
        let flaky = try s.swiftTranslation(of: "just 1 | asyncMap flaky 2 | retry 3").get()
        #expect(flaky.imports == ["Foundation", "Reactive"])
        #expect(flaky.helpers.map { $0.split(separator: "\n")[0] } == ["// MARK: helper pipeError", "// MARK: helper flaky"])
        #expect(flaky.code.count == 2 && flaky.code[0].hasPrefix("let flaky1 = Flaky(failing: 2)"), "\(flaky.code)")
        let mixed = try s.swiftTranslation(of: "just 1 | append 2.5 | append 3.5").get()
        #expect(!mixed.isFaithful)
        #expect(mixed.problems == ["values of mixed kinds (Swift's Output must be one type)"])
        #expect(mixed.code.joined().contains("/* no faithful Swift form: values of mixed kinds */"))
        guard case .failure(let two) = s.swiftTranslation(of: "just 1\njust 2") else { Issue.record("no error"); return }
        #expect(two.message == ":swift takes one pipeline")
    }

    @Test("an outline's stages have the types types(of:) gives, statement by statement, bindings in scope")
    func outlineMatchesTypes() throws {
        let text = "let t = from [1, 2] | map { $0 * 2 }\nt | zip (from [\"a\"]) | count"
        let (statements, diagnostics) = session().compile(text, file: "a.pipe")
        #expect(diagnostics.isEmpty)
        let outline = SourceOutline(statements)
        let top = outline.stages.filter { $0.name != "from" || $0.nameOffset < 10 }
        #expect(top.map(\.name) == ["from", "map", "t", "zip", "count"])
        #expect(top.map(\.type.output) == ["Int", "Int", "Int", "(Int, String)", "Int"])
        // `map { $0 * 2 }` is Combine's `.map`: `Never`, as `:type` says; the binding keeps the static pass's type.
        #expect(top[1].type.canFail == false)
        #expect(outline.bindings[0].type == PublisherType(output: "Int", canFail: true))
        // The nested `from ["a"]` keeps the static pass's type.
        #expect(outline.stages.first { $0.name == "from" && $0.nameOffset > 10 }?.type.output == "String")
    }
}
