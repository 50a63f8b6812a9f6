import Testing
@testable import PipeLanguage

/// `todo`, the workshop's placeholder: checks with a warning, fails at its position when run.
@Suite struct TodoTests {
    @Test(
        "todo as a stage, an argument or a closure body fails the statement at its position",
        arguments: [
            ("from [1, 2, 3] | todo", 18),
            ("from [1, 2, 3] | take todo", 23),
            ("from [1, 2, 3] | map { todo }", 24),
            ("todo | map { $0 }", 1),
            ("just 1 | asyncMap todo", 19),
            ("from [1, 2] | flatMap { todo }", 25),
            ("from 1...3 | scan todo { $0 + $1 }", 19),
            ("interval 10ms | take 3 | merge (todo)", 33),
        ])
    func failsAtItsPosition(_ text: String, _ column: Int) throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.map(\.id.name) == ["todo-left"], "\(text)")
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.location.column == column, "\(text)")
        let statement = try #require(statements.first)
        guard case .success(.run(let pipeline)) = session.execute(statement) else {
            Issue.record("not a pipeline: \(text)")
            return
        }
        let failure = Lock<PipelineError?>(nil)
        let c = pipeline.start(trace: false) { if case .failed(let e) = $0 { failure.withLock { $0 = e } } }
        session.runtime.driveVirtualTime { failure.withLock { $0 != nil } }
        withExtendedLifetime(c) {}
        let error = failure.withLock { $0 }
        #expect(error?.message == "this is where your answer goes", "\(text)")
        #expect(error?.location?.column == column, "\(text)")
        #expect(error?.id?.name == "todo")
    }

    @Test("a todo never passes an expect: the run fails, nothing is emitted")
    func neverPasses() {
        #expect(run("from [1, 2, 3] | map { todo }") == ["0 subscribed", "0 failed: this is where your answer goes"])
    }
}

@Suite struct NestedWarningTests {
    @Test("a warning inside a nested pipeline does not reject the stage around it")
    func nestedWarning() {
        #expect(diagnose("just 1 | merge (just 2 | retry 1)").map(\.id.name) == ["retry-has-no-effect"])
        #expect(run("just 1 | merge (just 2 | retry 1)") == ["0 subscribed", "0 value 1", "0 value 2", "0 finished"])
    }
}
