import Testing
@testable import PipeLanguage

/// One cap on what a pipeline builds, counted with its bindings and nested pipelines, checked
/// before anything is built (issue: nothing a person types kills the shell).
@Suite struct LimitsTests {
    @Test("a pipeline written longer than the cap is a positioned parse error")
    func writtenTooLong() {
        let text = "just 1" + String(repeating: " | map { $0 + 1 }", count: Limits.maxExpandedStages)
        let d = diagnose(text)
        #expect(d.map(\.id.name) == ["pipeline-too-long"])
        #expect(d.first?.message == "pipeline is too long (the limit is \(Limits.maxExpandedStages) stages)")
    }

    @Test("3,000 chained lets: the first past the cap is refused at its stage; uses of what came after say why")
    func chainedLets() {
        var text = "let a0 = just 1\n"
        for i in 1...3_000 { text += "let a\(i) = a\(i - 1) | map { $0 + 1 }\n" }
        let d = diagnose(text)
        #expect(d.first?.id.name == "pipeline-too-large")
        #expect(d.first?.location.line == Limits.maxExpandedStages + 1)
        #expect(d.first?.location.column == 20)
        #expect(d.dropFirst().prefix(5).allSatisfy { $0.id.name == "binding-had-errors" })
        // Past 100 errors the checker stops, as the parser does.
        #expect(d.count <= 101)
        #expect(d.last?.id.name == "too-many-errors")
    }

    @Test("bindings that double (a = b | merge (b)) are refused at the first past the cap, before any build")
    func doublingBindings() {
        var text = "let a0 = just 1\n"
        for i in 1...30 { text += "let a\(i) = a\(i - 1) | merge (a\(i - 1))\n" }
        text += "a30 | count\n"
        let d = diagnose(text)
        #expect(d.first?.id.name == "pipeline-too-large")
        #expect(d.first?.location.line == 10)
        #expect(d.first?.message.contains("1023 stages") == true)
    }

    @Test("a pipeline at the cap checks clean; its size counts nested pipelines and bindings")
    func atTheCap() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, d) = session.compile("let b = just 1 | map { $0 } | map { $0 }\nb | merge (b | map { $0 }) | flatMap { just $0 }", file: "t")
        #expect(d.isEmpty)
        // b: 3; the last: b (3) + merge (1 + b 3 + map 1) + flatMap (1 + just 1) = 10.
        #expect(statements.last?.checked?.size == 10)
        let text = "just 1" + String(repeating: " | map { $0 + 1 }", count: Limits.maxExpandedStages - 1)
        #expect(diagnose(text).isEmpty)
    }
}
