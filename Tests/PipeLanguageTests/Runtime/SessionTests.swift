import Testing
@testable import PipeLanguage

@Suite struct SessionTests {
    @Test("a binding is not subscribed until used; each use builds a fresh graph")
    func bindings() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(
            run("let ticks = interval 100ms | take 3\nticks | scan 0 { $0 + $1 }", session: session)
                == ["0 subscribed", "100 value 0", "200 value 1", "300 value 3", "300 finished"])
        #expect(session.bindingNames == ["ticks"])
        #expect(session.bindingSummaries().first?.text == "interval 100ms | take 3")
        #expect(session.bindingSummaries().first?.type.description == "AnyPublisher<Int, Never>")
        #expect(run("ticks | count", session: session) == ["0 subscribed", "300 value 3", "300 finished"])
    }

    @Test("subjects: a background job sees sends; finish completes it")
    func subjects() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let recorder = Recorder()
        let (statements, d) = session.compile("let s = subject\ns | map { $0 * 2 } | sink &\ns.send 1\ns.send 2\ns.finish", file: "t")
        #expect(d.isEmpty)
        var cancellables: [AnyCancellable] = []
        for statement in statements {
            if case .success(.run(let p)) = session.execute(statement) {
                #expect(p.isBackground)
                cancellables.append(p.start(trace: false) { e in recorder.events.withLock { $0.append(describe(e)) } })
            }
        }
        #expect(recorder.events.withLock { $0 } == ["subscribed", "value 2", "value 4", "finished"])
    }

    @Test("currentValue replays its latest value to a new subscriber")
    func currentValue() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("let c = currentValue 0\nc.send 5\nc | take 1", session: session) == ["0 subscribed", "0 value 5", "0 finished"])
    }

    @Test("future is eager: started when bound; deferred starts on subscribe")
    func futureAndDeferred() {
        let session = Session(runtime: Runtime(clock: .virtual))
        // The future started at 0; a pipeline that first waits 300ms then subscribes sees it at once.
        #expect(
            run("let f = future delay 200 value 42\ntimer 300ms | flatMap { f }", session: session)
                == ["0 subscribed", "300 value 42", "300 finished"])
        #expect(
            run("let d = deferred { future delay 200 value 42 }\ntimer 300ms | flatMap { d }", session: session)
                == [
                    "0 subscribed", "300 note 0 future started: made now, by the closure around it, for this subscription",
                    "500 note 0 future fulfilled with 42 after 200ms", "500 value 42", "500 finished",
                ])
    }

    @Test("flaky counts across retry's resubscriptions within a run, and from zero for the next statement")
    func flaky() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("just 5 | asyncMap flaky 2 | retry 1", session: session).last?.hasPrefix("0 failed: flaky failure 2 of 2") == true)
        #expect(run("just 5 | asyncMap flaky 2 | retry 2", session: session) == ["0 subscribed", "0 value 5", "0 finished"])
        #expect(run("just 5 | asyncMap flaky 2 | retry 3 | replaceError -1", session: session) == ["0 subscribed", "0 value 5", "0 finished"])
        #expect(run("just 5 | asyncMap flaky 2 | replaceError -1", session: session) == ["0 subscribed", "0 value -1", "0 finished"])
    }

    @Test("a failed statement leaves the bindings exactly as before")
    func failedStatement() {
        let session = Session(runtime: Runtime(clock: .virtual))
        _ = run("let a = just 1\nlet s = subject", session: session)
        let before = session.bindingSummaries()
        let (statements, _) = session.compile("let b = a | map { $0 + 1 }", file: "t")
        session.reset()
        _ = run("let s = just 2", session: session)
        let mid = session.bindingSummaries()
        // `a` is gone, so the compiled statement fails at execute and changes nothing.
        if case .success = session.execute(statements[0]) { Issue.record("expected a failure") }
        #expect(session.bindingSummaries() == mid)
        #expect(before != mid)
        // A statement with errors is not returned by compile at all.
        #expect(session.compile("let c = jsut 1", file: "t").statements.isEmpty)
        #expect(session.bindingNames == ["s"])
    }

    @Test("expectations are handed to the shell")
    func actions() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, d) = session.compile("\nexpect values [1, \"a\"]\nexpect count 2\nexpect time 1.5s\nexpect failed \"x\"\nexpect finished", file: "t")
        #expect(d.isEmpty)
        let actions = [nil] + statements.map { session.execute($0) }
        guard case .success(.expect(.values([.int(1), .string("a")]), let location))? = actions[1] else {
            Issue.record("\(String(describing: actions[1]))"); return
        }
        #expect(location.line == 2)
        guard case .success(.expect(.count(2), _))? = actions[2] else { Issue.record("\(String(describing: actions[2]))"); return }
        guard case .success(.expect(.time(.milliseconds(1500)), _))? = actions[3] else { Issue.record("\(String(describing: actions[3]))"); return }
        guard case .success(.expect(.failed("x"), _))? = actions[4] else { Issue.record("\(String(describing: actions[4]))"); return }
        guard case .success(.expect(.finished, _))? = actions[5] else { Issue.record("\(String(describing: actions[5]))"); return }
    }

    @Test(":trace on reports each stage's lifecycle through handleEvents")
    func trace() {
        let events = run("just 1 | map { $0 + 1 }", trace: true)
        #expect(
            events == [
                "0 trace 0 just 0 subscribe", "0 trace 1 map 0 subscribe", "0 subscribed",
                "0 trace 1 map 0 request(unlimited)", "0 trace 0 just 0 request(unlimited)",
                "0 trace 0 just 0 value 1", "0 trace 1 map 0 value 2", "0 value 2",
                "0 trace 0 just 0 finished", "0 trace 1 map 0 finished", "0 finished",
            ])
    }

    @Test("cancelling travels up the graph and emits cancelled once")
    func cancel() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("interval 10ms | map { $0 }", file: "t")
        let p = try #require(session.execute(statements[0]).pipeline)
        let recorder = Recorder()
        let c = p.start(trace: true) { e in recorder.events.withLock { $0.append(describe(e)) } }
        session.runtime.driveVirtualTime { recorder.events.withLock { $0.filter { $0.hasPrefix("value") }.count >= 2 } }
        c.cancel()
        c.cancel()
        let events = recorder.events.withLock { $0 }
        #expect(events.suffix(3) == ["trace 1 map 0 cancel", "trace 0 interval 0 cancel", "cancelled"])
        #expect(events.filter { $0 == "cancelled" }.count == 1)
        #expect(session.runtime.virtual?.scheduler.pendingCount == 0)
    }

    @Test(
        "real clock: asyncMap delay sleeps on ContinuousClock",
        arguments: ["just 1 | asyncMap delay 20 | map { $0 + 1 }", "just 1 | delay 20ms | map { $0 + 1 }"])
    func realClock(_ text: String) async throws {
        let session = Session(runtime: Runtime(clock: .real))
        let (statements, _) = session.compile(text, file: "t")
        let p = try #require(session.execute(statements[0]).pipeline)
        let start = session.runtime.now()
        let recorder = Recorder()
        let c = p.start(trace: false) { e in
            recorder.events.withLock { $0.append(describe(e)) }
            if case .finished = e { recorder.done.store(true, ordering: .sequentiallyConsistent) }
        }
        // The shell waits on its own in real mode; here, poll: the limit (30 s and more) only
        // catches a hang, a loaded machine can take seconds.
        for _ in 0..<3_000 where !recorder.done.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(recorder.events.withLock { $0 } == ["subscribed", "value 2", "finished"])
        #expect(session.runtime.now() - start >= .milliseconds(20))
        withExtendedLifetime(c) {}
    }
}

@Suite struct StaticPassTests {
    @Test(":type prints the Combine type in Swift spelling, per stage and overall")
    func types() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(try session.types(of: "just 1").get().type.description == "AnyPublisher<Int, Never>")
        #expect(try session.types(of: "just 1 | asyncMap flaky 2 | retry 2").get().type.description == "AnyPublisher<Int, Error>")
        #expect(try session.types(of: "from [\"a\"] | map { $0 + \"b\" }").get().type.description == "AnyPublisher<String, Never>")
        #expect(try session.types(of: "interval 1s | collect 2").get().type.description == "AnyPublisher<[Int], Never>")
        #expect(try session.types(of: "fail \"x\" | replaceError 0").get().type.description == "AnyPublisher<Int, Never>")
        let types = try session.types(of: "just 1 | filter { $0 > 0 } | map { $0 == 1 }").get()
        #expect(types.stages.map(\.text) == ["just 1", "filter { $0 > 0 }", "map { $0 == 1 }"])
        #expect(types.stages.map(\.type.description) == ["AnyPublisher<Int, Never>", "AnyPublisher<Int, Never>", "AnyPublisher<Bool, Never>"])
        #expect(types.type.description == "AnyPublisher<Bool, Never>" && types.noFaithfulSwiftForm == nil && types.trappingStages.isEmpty)
        guard case .failure(let d) = session.types(of: "just 1 | retyr") else { Issue.record("no error"); return }
        #expect(d.message == "unknown operator 'retyr'")
    }

    /// Combine's `map` keeps its upstream's Failure (Apple: `Publishers.Map`, "Failure = Upstream.Failure");
    /// only `tryMap` makes it `Error`. `:swift` writes `.map` for `map { $0 * 10 }`, so `:type` says
    /// `Never` and a note says where the language differs (an overflow fails, Swift traps).
    @Test(":type shows the types of the Swift :swift writes, with one note where the language fails and Swift traps")
    func typesOfTheSwift() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        for text in ["from [1, 2, 3] | map { $0 * 10 }", "from [1, 2, 3] | asyncMap { $0 * 10 }", "from [1, 2] | map { $0 * 10 } | filter { $0 % 2 == 0 }"] {
            let swift = try session.swiftTranslation(of: text).get().code.joined(separator: "\n")
            #expect(!swift.contains("tryMap") && !swift.contains("tryFilter"), "\(swift)")
            let types = try session.types(of: text).get()
            #expect(!types.stages.contains { $0.type.canFail }, "\(types)")
            #expect(types.type.description == "AnyPublisher<Int, Never>")
            #expect(types.trappingStages.map(\.text) == ["map { $0 * 10 }"] || types.trappingStages.map(\.text) == ["asyncMap { $0 * 10 }"], "\(types)")
        }
        let plain = try session.types(of: "just 1 | filter { $0 > 0 }").get()
        #expect(plain.trappingStages.isEmpty && plain.noFaithfulSwiftForm == nil, "\(plain)")
        let throwing = try session.types(of: "just 1 | asyncMap flaky 1").get()
        #expect(throwing.type.description == "AnyPublisher<Int, Error>", "\(throwing)")
    }

    @Test("warnings for no-ops a learner wants to know about")
    func warnings() {
        let w = { (text: String) in diagnose(text).filter { $0.severity == .warning }.map(\.message) }
        #expect(w("just 1 | retry 3") == ["retry has no effect: upstream never fails"])
        #expect(w("just 1 | replaceError 0") == ["replaceError on a publisher that never fails has no effect"])
        #expect(w("just 1 | catch { just 2 }") == ["catch on a publisher that never fails has no effect"])
        #expect(w("fail \"x\" | retry 3").isEmpty)
        #expect(w("just 1 | asyncMap delay 100 | retry 3 | sink").isEmpty)  // asyncMap's throwing form
        #expect(w("just 5 | asyncMap flaky 2 | retry 3 | replaceError -1").isEmpty)
        #expect(w("just 1 | map { $0 + 1 } | retry 3").isEmpty)  // Int arithmetic can overflow
        // Warnings do not stop a statement from running.
        #expect(Session(runtime: Runtime(clock: .virtual)).compile("just 1 | retry 3", file: "t").statements.count == 1)
    }
}

/// `:` lines are the host's (the shell's commands): taken out before the language reads a line.
@Suite struct ScriptLinesTests {
    @Test("a `:` line at a statement's start is a host line; its line is left blank for the language")
    func takenOut() {
        let script = ScriptLines("just 1 | sink\n  :trace on  \njust 2 | sink", firstLine: 3)
        #expect(script.language == "just 1 | sink\n\njust 2 | sink")
        #expect(script.hostLines == [ScriptLines.HostLine(line: 4, column: 3, name: "trace", argument: "on", text: ":trace on")])
    }

    @Test("a `:` inside a statement that goes on is the language's (a label, a ternary)")
    func insideStatement() {
        let text = "just 1 |\n:trace on\nfrom [1] | map { $0 > 0\n: 2 }"
        let script = ScriptLines(text)
        #expect(script.hostLines.isEmpty)
        #expect(script.language == text)
    }

    @Test("the language never sees a host line: compiling what is left has no errors")
    func languageCompiles() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let script = ScriptLines(":clock virtual\nlet a = just 1\n:\n:load x.pipe\na | sink")
        #expect(script.hostLines.map(\.name) == ["clock", "", "load"])
        let (statements, diagnostics) = session.compile(script.language, file: "t")
        #expect(diagnostics.isEmpty)
        #expect(statements.map(\.location.line) == [2, 5])
    }

    @Test("CRLF and LF scripts have the same host lines and the same language lines")
    func crlf() {
        let lf = "let a = just 1\n  :type a\na | sink\n:trace on\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        let script = ScriptLines(crlf)
        #expect(script.hostLines == ScriptLines(lf).hostLines)
        #expect(script.hostLines.map(\.text) == [":type a", ":trace on"])
        // Host lines are left blank (line numbers kept); the other lines keep their `\r`.
        #expect(script.language == "let a = just 1\r\n\na | sink\r\n\n")
        // A lone `\r` is a blank, as the lexer reads it: not a line break.
        #expect(ScriptLines("just 1\r:type x").hostLines.isEmpty)
    }

    @Test("after a host line, the rest of the script keeps its line numbers")
    func after() {
        let script = ScriptLines("let a = just 1\n:reset\nlet b = just 2\n:trace on")
        let rest = script.after(line: 2)
        #expect(rest.firstLine == 3)
        #expect(rest.language == "let b = just 2\n")
        #expect(rest.hostLines.map(\.line) == [4])
    }
}

/// Every statement kind is checked into a `CheckedStatement`, constants evaluated once at
/// compile time, so `execute` only meets the session's state.
@Suite struct CheckedStatementTests {
    private func checked(_ text: String) -> [CheckedStatement] {
        Session(runtime: Runtime(clock: .virtual)).compile(text, file: "t").statements.map(\.statement)
    }

    @Test("send carries its value, fail its message, expect its evaluated expectation")
    func evaluatedAtCompile() {
        let statements = checked(
            "let s = subject\ns.send 1...3\ns.fail \"bo\" + \"om\"\nexpect values [1 + 1]\nexpect count 2\nexpect marbles \"-a |\" frame: 20ms")
        guard statements.count == 6 else {
            Issue.record("\(statements)")
            return
        }
        guard case .bind("s", _, let info) = statements[0] else { Issue.record("\(statements[0])"); return }
        #expect(info.isSubject)
        guard case .send("s", _, .array([.int(1), .int(2), .int(3)])) = statements[1] else { Issue.record("\(statements[1])"); return }
        guard case .fail("s", _, "boom", _) = statements[2] else { Issue.record("\(statements[2])"); return }
        guard case .expect(.values([.int(2)])) = statements[3] else { Issue.record("\(statements[3])"); return }
        guard case .expect(.count(2)) = statements[4] else { Issue.record("\(statements[4])"); return }
        guard case .expect(.marbles("-a|", frame: .milliseconds(20))) = statements[5] else { Issue.record("\(statements[5])"); return }
    }

    @Test("a constant that cannot be evaluated is a compile error, not a run-time one")
    func badConstantAtCompile() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile("let s = subject\ns.send 1...99999999999", file: "t")
        #expect(statements.count == 1)
        #expect(diagnostics.map(\.id.name) == ["range-too-large"])
    }

    @Test("execute still reports what only the session's state can get wrong: a binding gone")
    func runTimeStateOnly() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("let s = subject\ns.send 1", file: "t")
        _ = session.execute(statements[0])
        session.reset()
        guard case .failure(let d) = session.execute(statements[1]) else {
            Issue.record("sent to a subject that is gone")
            return
        }
        #expect(d.id.name == "send-to-non-subject")
    }
}
