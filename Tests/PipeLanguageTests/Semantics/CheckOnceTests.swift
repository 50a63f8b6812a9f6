import Synchronization
import Testing
@testable import PipeLanguage

/// The one walk: each nested pipeline is checked once, where its argument is matched; inference
/// and the builder read the checked tree.
@Suite struct CheckOnceTests {
    /// `just 1 | merge (just 1 | merge (…))`, `levels` deep.
    static func nested(_ levels: Int) -> String {
        var text = "just 1"
        for _ in 0..<levels { text = "just 1 | merge (\(text))" }
        return text
    }

    @Test("checking nested merges checks each pipeline once: linear, also at the nesting cap", arguments: [20, 40, 64])
    func nestingIsLinear(_ levels: Int) throws {
        let source = SourceText(Self.nested(levels), file: "t")
        var parser = Parser(source: source)
        let statements = parser.parseProgram()
        #expect(parser.diagnostics.isEmpty)
        var checker = Checker(source: source, bindings: [:])
        let statement = try #require(statements.first)
        let result = checker.check(statement)
        let checked = try #require(result?.pipeline)
        #expect(checker.diagnostics.isEmpty)
        // One pipeline per level plus the outermost; before, each level doubled the work.
        #expect(checker.pipelinesChecked == levels + 1)
        #expect(checked.shape == Shape(kind: .int, canFail: false))
    }

    @Test("a 40-level nesting runs: every level's value arrives")
    func nestingRuns() {
        let events = run(Self.nested(40))
        #expect(events.filter { $0 == "0 value 1" }.count == 41)
        #expect(events.last == "0 finished")
    }

    @Test("a pipeline closure is checked once with what $0 is: the upstream value for flatMap, the message for catch")
    func closureInputs() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(try session.types(of: "from [1, 2] | flatMap { just $0 }").get().type.description == "AnyPublisher<Int, Never>")
        #expect(try session.types(of: "fail \"x\" | catch { just $0 }").get().type.description == "AnyPublisher<String, Never>")
        #expect(run("from [1, 2] | flatMap { from [$0, $0 * 10] }") == ["0 subscribed", "0 value 1", "0 value 10", "0 value 2", "0 value 20", "0 finished"])
    }

    @Test("let captures what its right-hand side names at that moment: rebinding a name over itself")
    func rebindOverItself() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("let d = just 1\nlet d = d | map { $0 + 1 }\nd", session: session) == ["0 subscribed", "0 value 2", "0 finished"])
        #expect(run("let d = d | map { $0 * 10 }\nd", session: session) == ["0 subscribed", "0 value 20", "0 finished"])
    }

    @Test("two bindings rebound through each other keep the values they had")
    func rebindThroughAnother() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(
            run("let a = just 1\nlet b = a | map { $0 + 1 }\nlet a = b | map { $0 * 10 }\na | merge (b)", session: session)
                == ["0 subscribed", "0 value 20", "0 value 2", "0 finished"])
    }

    @Test("a subject rebound over itself: the new binding reads from the old subject (no endless build)")
    func rebindSubject() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("let s = subject\nlet s = s | map { $0 * 2 }\ns", session: session) == ["0 subscribed"])
        // The name now holds a pipeline, not a subject.
        #expect(diagnose("s.send 1", session: session).map(\.id.name) == ["not-subject"])
    }

    @Test("execute does not check again: a binding gone since compile is a positioned error with an id")
    func bindingGone() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        _ = run("let a = just 1", session: session)
        let (statements, diagnostics) = session.compile("a | map { $0 + 1 }", file: "t")
        #expect(diagnostics.isEmpty)
        session.reset()
        let statement = try #require(statements.first)
        guard case .failure(let d) = session.execute(statement) else {
            Issue.record("expected a diagnostic")
            return
        }
        #expect(d.id.name == "binding-gone")
        #expect(d.location.column == 1)
    }

    @Test("checker diagnostics carry stable ids and real fix-its")
    func checkerIDs() throws {
        let d = diagnose("just 1 | retyr 3")
        #expect(d.map(\.id.name) == ["unknown-operator"])
        #expect(d.first?.id.code == "E302")
        let fix = try #require(d.first?.fixIts.first)
        #expect(fix.applied(to: "just 1 | retyr 3") == "just 1 | retry 3")
        #expect(diagnose("just 1 | retry 3").map(\.id.name) == ["retry-has-no-effect"])
        #expect(diagnose("just 1 | retry 3").first?.severity == .warning)
        #expect(diagnose("justt 1").first?.fixIts.first?.applied(to: "justt 1") == "just 1")
    }

    @Test(":trace indents inner pipelines under their stage and names the virtual clock")
    func traceDepthAndThread() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("just 1 | flatMap { just $0 | map { $0 + 1 } }", file: "t")
        guard case .success(.run(let pipeline)) = session.execute(statements[0]) else {
            Issue.record("no pipeline")
            return
        }
        let traces = Mutex<[(String, Int, String)]>([])
        let c = pipeline.start(trace: true) { event in
            if case .trace(_, let name, let depth, _, let thread) = event { traces.withLock { $0.append((name, depth, thread)) } }
        }
        session.runtime.driveVirtualTime { false }
        withExtendedLifetime(c) {}
        let seen = traces.withLock { $0 }
        #expect(seen.contains { $0.0 == "map" && $0.1 == 1 })
        #expect(seen.contains { $0.0 == "flatMap" && $0.1 == 0 })
        #expect(!seen.contains { $0.0 == "flatMap" && $0.1 != 0 })
        #expect(seen.allSatisfy { $0.2 == "virtual" })
    }
}
