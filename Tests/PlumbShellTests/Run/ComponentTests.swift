import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// The statement runner's components, each on its own: what it owns and what it does with what
/// it is handed, without the rest of the shell.

/// A session on the virtual clock and the one pipeline `text` compiles to.
private func pipeline(_ text: String, in session: Session) throws -> Pipeline {
    let compiled = session.compile(text, file: "t.pipe")
    let statement = try #require(compiled.statements.first)
    guard case .success(.run(let pipeline)) = session.execute(statement) else {
        Issue.record("\(text) is not a pipeline")
        throw CancellationError()
    }
    return pipeline
}

private let here = SourceLocation(file: "t.pipe", line: 1, column: 1)

@Suite struct FixOffersTests {
    @Test("a typed line with a fix-it is offered corrected, once")
    func offersOnce() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let line = "just 1 | retyr 3"
        var fixes = FixOffers()
        fixes.begin(line)
        fixes.consider(session.compile(line, file: "<input>").diagnostics, source: line, firstLine: 1)
        fixes.end()
        #expect(fixes.take() == "just 1 | retry 3")
        #expect(fixes.take() == nil)
    }

    @Test("diagnostics about other text (a loaded file, a later line) offer nothing")
    func onlyTheTypedLine() {
        let session = Session(runtime: Runtime(clock: .virtual))
        var fixes = FixOffers()
        fixes.begin(":load a.pipe")
        fixes.consider(session.compile("just 1 | retyr 3", file: "a.pipe").diagnostics, source: "just 1 | retyr 3", firstLine: 1)
        #expect(fixes.take() == nil)
    }

    @Test("a misspelt command is offered with the suggestion in its place")
    func command() {
        var fixes = FixOffers()
        fixes.begin(":trcae on")
        fixes.offerCommand("trace", for: "trcae")
        #expect(fixes.take() == ":trace on")
        fixes.end()
        fixes.offerCommand("trace", for: "trcae")
        #expect(fixes.take() == nil, "no line is being run")
    }
}

@Suite struct LastValuesComponentTests {
    @Test("bind makes _ a source of the run's values in the session and says what it stands for")
    func bind() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        let values = LastValues()
        let run = try pipeline("from [1, 2]", in: session)
        let recorder = RunRecorder(
            job: 0, runtime: session.runtime, formatter: EventFormatter(format: .text, style: Style(enabled: false)), sink: nil, onTerminal: {})
        let cancellable = run.start(trace: false, record: false, onEvent: recorder.handle)
        _ = session.runtime.driveVirtualTime(horizonNanoseconds: Runtime.defaultHorizonNanoseconds) { recorder.isDone }
        _ = cancellable
        values.bind("_", of: recorder.snapshot, from: "the last run", session: session)
        #expect(values.described["_"] == "the last run's 2 values")
        #expect(session.bindingNames.contains("_"))
        values.forget()
        #expect(values.described.isEmpty)
    }

    @Test("placeholders bind the names a text uses before their runs happened, and only those")
    func placeholders() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let values = LastValues()
        values.bindPlaceholders(in: "_2 | map { $0 + \"_3\" } | sink", session: session)
        #expect(values.described == ["_2": "job 2 has not ended yet"])
        #expect(LastValues.valueNames(in: "_ | zip _12 | map { $0 + \"_3\" }") == ["_", "_12"])
        #expect(!LastValues.namesValues("snake_case | sink"))
    }
}

@Suite struct JobControlTests {
    @Test("a started job gets a number, is listed while it runs, and is reaped with its record when it ends")
    func startAndReap() throws {
        let output = CapturedOutput()
        let session = Session(runtime: Runtime(clock: .virtual))
        _ = session.execute(try #require(session.compile("let s = subject", file: "t.pipe").statements.first))
        let shell = ShellOutput(out: output.sink, backgroundOut: output.sink, wake: WakePipe(), interactive: false, verbosity: .normal)
        let jobs = JobControl()
        jobs.start(try pipeline("s | take 1 &", in: session), runtime: session.runtime, options: ShellOptions(clock: .virtual), output: shell)
        #expect(output.text.hasPrefix("[1] s | take 1\n"))
        #expect(jobs.listing(now: session.runtime.now()) == ["[1] running  0 ms  0 values  s | take 1"])
        #expect(jobs.reap().isEmpty)
        _ = session.execute(try #require(session.compile("s.send 4", file: "t.pipe").statements.first))
        session.runtime.settleVirtualTime()
        let ended = jobs.reap()
        #expect(ended.map(\.id) == [1])
        #expect(ended.first?.record.values == [.int(4)])
        #expect(jobs.isEmpty)
        #expect(jobs.text(1) == "s | take 1", "an ended job's text is kept (:edit 1)")
    }

    @Test("cancelAll cancels every running job")
    func cancelAll() throws {
        let output = CapturedOutput()
        let session = Session(runtime: Runtime(clock: .virtual))
        _ = session.execute(try #require(session.compile("let s = subject", file: "t.pipe").statements.first))
        let wake = WakePipe()
        let shell = ShellOutput(out: output.sink, backgroundOut: output.sink, wake: wake, interactive: false, verbosity: .quiet)
        let jobs = JobControl()
        jobs.start(try pipeline("s | sink &", in: session), runtime: session.runtime, options: ShellOptions(clock: .virtual), output: shell)
        jobs.start(try pipeline("s | sink &", in: session), runtime: session.runtime, options: ShellOptions(clock: .virtual), output: shell)
        #expect(jobs.running.map(\.id) == [1, 2])
        jobs.cancelAll(waitingOn: wake)
        #expect(jobs.reap().map { $0.record.termination } == [.cancelled, .cancelled])
        #expect(output.text.isEmpty, "quiet prints no job numbers")
    }
}

@Suite struct ScriptLoaderTests {
    @Test("a relative :load inside a script is relative to that script's folder; at the prompt, to the working directory")
    func resolve() {
        let parent = LoadedFile(name: "lib/a.pipe", path: "/tmp/lib/a.pipe")
        #expect(ScriptLoader.resolve("b.pipe", loadedFrom: parent) == "/tmp/lib/b.pipe")
        #expect(ScriptLoader.resolve("/x/b.pipe", loadedFrom: parent) == "/x/b.pipe")
        #expect(ScriptLoader.resolve("b.pipe", loadedFrom: nil) == "b.pipe")
    }

    @Test("the outermost script is on the stack while it runs, and a load of it again is a cycle")
    func cycle() throws {
        let path = NSTemporaryDirectory() + "/plumb-loader-\(getpid()).pipe"
        try ":load \(path)\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: .silent)
        let loader = runner.loader
        let depth = loader.outermost(LoadedFile(name: "top.pipe", path: path)) { loader.loading.count }
        #expect(depth == 1)
        #expect(loader.loading.isEmpty)
        #expect(loader.load(path, at: here, in: runner.context) == .ok, "the error is the loaded script's; the load goes on")
        #expect(runner.finish().compileFailures == 1, "the cycle is counted as a static error")
    }
}

@Suite struct StepperComponentTests {
    @Test("the stepper owns the paused run: step starts it, next moves it, stop ends it into the last run")
    func ownsThePausedRun() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        let stepper = runner.stepper
        #expect(stepper.step("marble \"-a-b-|\"", at: here, in: runner.context) == .ok)
        #expect(stepper.stepping?.elapsedText == "0 ms")
        #expect(stepper.next(at: here, in: runner.context) == .ok)
        #expect(stepper.stepping?.elapsedText == "100 ms")
        #expect(stepper.stop(at: here, in: runner.context) == .ok)
        #expect(stepper.stepping == nil)
        #expect(runner.last?.record.values == [.string("a")])
    }

    @Test("asked before replacing a paused run: no keeps it")
    func confirm() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        var asked: [String] = []
        runner.stepper.confirm = {
            asked.append($0)
            return false
        }
        _ = runner.stepper.step("marble \"-a-|\"", at: here, in: runner.context)
        _ = runner.stepper.step("marble \"--b-|\"", at: here, in: runner.context)
        #expect(asked.count == 1)
        #expect(runner.stepper.stepping?.pipeline.text == "marble \"-a-|\"")
        #expect(output.text.contains("kept the paused run"))
        _ = runner.finish()
    }
}

@Suite struct StatementEditorTests {
    @Test("the editor keeps the last statement typed, not commands; outside the REPL :edit needs a terminal")
    func lastStatement() {
        let editor = StatementEditor()
        editor.typed("just 1 | sink")
        editor.typed("  :jobs")
        #expect(editor.lastStatement == "just 1 | sink")
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: .silent)
        #expect(editor.edit("", at: here, in: runner.context) == .compileErrors)
    }
}

@Suite struct ScreenTests {
    @Test(":clear on a terminal writes clear's sequence (home, erase the screen and the scrollback)")
    func terminal() {
        let output = CapturedOutput()
        #expect(Screen.clear(output.sink, isTerminal: { _ in true }))
        #expect(output.text == "\u{1B}[H\u{1B}[2J\u{1B}[3J")
    }

    @Test(":clear into a file or a pipe prints nothing")
    func notATerminal() {
        let output = CapturedOutput()
        #expect(!Screen.clear(output.sink))
        #expect(output.text.isEmpty)
    }

    @Test(":clear through the command table, in a quiet runner, prints nothing either")
    func quiet() throws {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: .quiet)
        let clear = try #require(ShellCommand.named("clear"))
        #expect(clear.perform(runner.context, "", here) == .ok)
        #expect(output.text.isEmpty)
        #expect(clear.completion == .nothing)
    }
}

@Suite struct ShellOutputTests {
    @Test("say adds the missing newline; a quiet output says nothing")
    func say() {
        let output = CapturedOutput()
        ShellOutput(out: output.sink, backgroundOut: output.sink, wake: WakePipe(), interactive: false, verbosity: .normal).say("hi")
        ShellOutput(out: output.sink, backgroundOut: output.sink, wake: WakePipe(), interactive: false, verbosity: .quiet).say("hidden")
        #expect(output.text == "hi\n")
    }
}

@Suite struct CommandContextTests {
    @Test("a command changes the settings through its context, and the runner's next run sees them")
    func settings() throws {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        let trace = try #require(ShellCommand.named("trace"))
        #expect(trace.perform(runner.context, "on", here) == .ok)
        #expect(runner.options.trace)
        #expect(output.text == "trace is on\n")
    }

    @Test("a command's error goes through the context: a static error in a script, nothing counted at the prompt")
    func errors() {
        let output = CapturedOutput()
        let script = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), verbosity: .silent)
        #expect(script.context.usage(":x", at: here) == .compileErrors)
        #expect(script.finish().compileFailures == 1)
        let prompt = StatementRunner(
            options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe(), interactive: true, verbosity: .silent)
        #expect(prompt.context.usage(":x", at: here) == .ok)
        #expect(prompt.finish().compileFailures == 0)
    }
}
