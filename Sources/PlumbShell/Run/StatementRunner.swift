import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// Settings that apply to a whole `plumb` invocation. The statement runner keeps the one copy
/// that `:trace`, `:marbles` and `:clock` change.
struct ShellOptions: Sendable {
    var clock: ClockMode = .real
    var format: OutputFormat = .text
    /// Colour on standard output (a terminal, no NO_COLOR, no --no-color).
    var color = false
    /// Colour on standard error, for diagnostics.
    var colorErrors = false
    var trace = false
    /// Print a marble diagram after each foreground run (`:marbles on`; `plumb run --marbles`).
    var marbles = false
    /// Write every foreground run's diagram into this SVG at the end (`plumb run --svg OUT.svg`).
    var svg: String?
    /// Keep every foreground run's diagram in `diagrams` without printing or writing it (the
    /// catalog examples' diagrams: `ExampleRun`).
    var keepsDiagrams = false
    /// Print the language's warnings (off for the catalog examples, whose `todo` is meant: the
    /// reference `plumb help --markdown` writes shows no learner's warning).
    var showsWarnings = true
    /// How far a virtual run goes while only an endless timer keeps it going (`--until`).
    var until: Int64 = Runtime.defaultHorizonNanoseconds
}

extension ShellOptions {
    /// Whether runs record lanes: for a diagram printed after them, or for an SVG.
    var recordsLanes: Bool { marbles || svg != nil || keepsDiagrams }
}

/// How much a statement runner prints.
enum Verbosity: Sendable {
    /// Events, command output, verdicts and diagnostics.
    case normal
    /// `plumb test`: no events and no command output; diagnostics still go to standard error.
    case quiet
    /// `plumb learn`'s check: nothing at all; the report keeps the first error.
    case silent
}

/// Performs statements against a session: pipelines in the foreground (`ForegroundRun`) or as
/// jobs (`JobControl`), `expect` lines (`ExpectationCheck`), subject commands, and `:`-commands
/// (`ShellCommand`, through a `CommandContext`). The REPL, `plumb run`, `plumb test`, `plumb learn`
/// and stdin mode all use one; what it came to is its `report`, handed back by `finish()`.
///
/// The runner is the core (the session, the options, the output, the report); each stateful
/// feature is a component that owns its state: `JobControl` (jobs), `LastValues` (`_`, `_N`),
/// `FixOffers`, `Stepper` (`:step`), `StatementEditor` (`:edit`), `ScriptLoader` (`:load`),
/// `RunHistory` (the last run and the diagrams) and `SessionLog` (`:save`).
///
/// Used from the main thread only (the session is not thread-safe); pipelines report on any
/// thread through their `RunRecorder`, which writes to a thread-safe `OutputSink`.
///
/// ```swift
/// let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: OutputSink(fd: fd), wake: WakePipe())
/// runner.run(text: "just 1 | sink", file: "<input>")
/// runner.finish().exitCode   // 0
/// ```
final class StatementRunner {
    /// The session statements run in; replaced (never changed) by `:clock` and `:reset`.
    private(set) var session: Session
    /// The one copy of the settings: `:trace`, `:marbles` and `:clock` change it here.
    var options: ShellOptions
    let output: ShellOutput
    /// Counts and the first error so far.
    private(set) var report = RunReport()
    let jobs = JobControl()
    /// The bindings the shell made for runs' values (`_`, `_N`).
    let values = LastValues()
    private var fixes = FixOffers()
    /// The run `:step` holds paused on the virtual clock, if one is.
    let stepper = Stepper()
    let editor = StatementEditor()
    let loader = ScriptLoader()
    /// The last foreground run, its stop note, and the diagrams kept for `--svg`.
    var runs = RunHistory()
    /// What the session did, for `:save`.
    var log = SessionLog()

    init(
        options: ShellOptions, out: OutputSink, backgroundOut: OutputSink? = nil, wake: WakePipe,
        interactive: Bool = false, verbosity: Verbosity = .normal
    ) {
        self.options = options
        self.session = Session(runtime: Runtime(clock: options.clock))
        output = ShellOutput(out: out, backgroundOut: backgroundOut ?? out, wake: wake, interactive: interactive, verbosity: verbosity)
        installNoteHandler()
    }

    var out: OutputSink { output.out }
    var backgroundOut: OutputSink { output.backgroundOut }
    var wake: WakePipe { output.wake }
    var interactive: Bool { output.interactive }
    var verbosity: Verbosity { output.verbosity }
    var quiet: Bool { output.quiet }
    /// The foreground runs' diagrams, for `--svg`.
    var diagrams: [(text: String, run: MarbleRun)] { runs.diagrams }
    /// The last foreground pipeline's run, which `expect` checks, and its text (the SVG's title).
    var last: (record: RunRecord, text: String)? { runs.last }
    var stepping: SteppedRun? { stepper.stepping }
    /// `150 ms` while a run is paused (the REPL's prompt says so), else nil.
    var pausedAt: String? { stepper.stepping?.elapsedText }
    /// Asks the person a yes/no question (the REPL sets it); nil answers yes without asking (scripts).
    var confirm: ((String) -> Bool)? {
        get { stepper.confirm }
        set { stepper.confirm = newValue }
    }
    /// Puts a line in the prompt's history (the REPL sets it: an edited statement goes there).
    var addToHistory: ((String) -> Void)? {
        get { editor.addToHistory }
        set { editor.addToHistory = newValue }
    }
    /// What `:`-commands and the components they drive may touch.
    var context: CommandContext { CommandContext(self) }

    /// Notes made outside a run (a bound `future` saying it started, and later that it was
    /// fulfilled) print like background output: above the prompt in the REPL.
    private func installNoteHandler() {
        guard !quiet else { return }
        let sink = backgroundOut
        let style = self.style
        let jsonl = options.format == .jsonl
        session.runtime.onNote { text in
            if jsonl {
                var line: [UInt8] = Array("{\"event\":\"note\",\"text\":".utf8)
                EventFormatter.appendJSONString(text, to: &line)
                line.append(contentsOf: "}\n".utf8)
                sink.append { $0.append(contentsOf: line) }
            } else {
                sink.write(style.dim("note: " + text) + "\n")
            }
        }
    }

    var style: Style { Style(enabled: options.color) }
    var formatter: EventFormatter { EventFormatter(format: options.format, style: style) }

    /// Ends a script: cancels every background job and returns what the run came to.
    func finish() -> RunReport {
        stepper.end(cancelling: true, in: context)
        cancelAllJobs()
        return report
    }

    // MARK: Text

    /// Performs `text`'s statements and `:`-commands in order. `:` lines are taken out first
    /// (`ScriptLines`): the language compiles the rest, and on errors prints them and runs nothing.
    /// After a command, what is left of the text is compiled again, in the session as the command
    /// left it (`:clock` and `:reset` replace it).
    func run(text: String, file: String, firstLine: Int = 1) -> StepResult {
        // Jobs that ended bind `_N` before the text that may name them is compiled; names of runs
        // still to come are bound empty until then.
        reapJobs()
        values.bindPlaceholders(in: text, session: session)
        var script = ScriptLines(text, firstLine: firstLine)
        var again = false
        reading: while true {
            // The names the text's `:load`s bind are known after those lines (`LoadedNames`).
            let loads = LoadedNames.loads(in: script, loading: loader.loading, session: session)
            let compiled = session.compile(script.language, file: file, firstLine: script.firstLine, loads: loads)
            // Read again after a command, the text's warnings were already shown.
            report(
                again ? compiled.diagnostics.filter { $0.severity == .error } : compiled.diagnostics,
                source: script.language, firstLine: script.firstLine)
            if compiled.diagnostics.contains(where: { $0.severity == .error }) {
                report.countCompileFailure()
                return .compileErrors
            }
            var statements = compiled.statements[...]
            var hostLines = script.hostLines[...]
            while !statements.isEmpty || !hostLines.isEmpty {
                let result: StepResult
                if let host = hostLines.first, statements.first.map({ host.line < $0.location.line }) ?? true {
                    hostLines.removeFirst()
                    result = command(host.name, argument: host.argument, at: SourceLocation(file: file, line: host.line, column: host.column))
                    if result == .ok, !statements.isEmpty || !hostLines.isEmpty {
                        script = script.after(line: host.line)
                        again = true
                        continue reading
                    }
                } else {
                    let statement = statements.removeFirst()
                    result = perform(statement, source: script.language, firstLine: script.firstLine)
                    // A run rebinds `_`: what follows and names it is read again, with its kinds.
                    let end = statement.location.line + LineIndex.lines(of: statement.text).count - 1
                    if result == .ok, statement.runsPipeline, !statement.runsInBackground,
                        let next = statements.first, next.location.line > end,
                        statements.contains(where: { LastValues.namesValues($0.text) })
                    {
                        script = script.after(line: end)
                        again = true
                        continue reading
                    }
                }
                switch result {
                case .ok: continue
                // `plumb run` reports a failed expect and goes on; `plumb test` stops at the first.
                case .expectationFailed where !quiet: continue
                default: return result
                }
            }
            return .ok
        }
    }

    /// Runs a script file's text as the outermost script (`plumb run`, `plumb test`, `plumb learn`),
    /// so a `:load` inside it that loads it again is a cycle.
    func runScript(_ text: String, file: String, path: String) -> StepResult {
        loader.outermost(LoadedFile(name: file, path: path)) { run(text: text, file: file) }
    }

    /// Parses and checks `text` and prints its diagnostics, running nothing (`plumb check`).
    /// - Returns: the number of statements, or nil when it has errors.
    func check(text: String, file: String) -> Int? {
        // `:` lines are the shell's, as when the script runs: the language never sees them; the
        // names a `:load`ed file binds are known after its line, as when it runs.
        let script = ScriptLines(text)
        let loads = LoadedNames.loads(in: script, loading: [LoadedFile(name: file, path: file)], session: session)
        // A loaded file's own errors, where they are (running it would report them at its `:load`).
        var loadErrors = false
        func reportLoaded(_ loads: [LoadedBindings]) {
            for load in loads {
                reportLoaded(load.inner)
                report(load.diagnostics, source: load.text, firstLine: 1)
                loadErrors = loadErrors || load.diagnostics.contains { $0.severity == .error }
            }
        }
        reportLoaded(loads)
        let compiled = session.compile(script.language, file: file, loads: loads)
        report(compiled.diagnostics, source: text, firstLine: 1)
        if loadErrors || compiled.diagnostics.contains(where: { $0.severity == .error }) {
            report.countCompileFailure()
            return nil
        }
        return compiled.statements.count
    }

    /// Runs one line typed at the REPL, as `run(text:file:)` runs any text. When it fails with
    /// diagnostics carrying fix-its (or names a misspelt command), `takeFixOffer()` then returns
    /// the line corrected.
    func runLine(_ text: String) -> StepResult {
        fixes.begin(text)
        editor.typed(text)
        defer { fixes.end() }
        return run(text: text, file: "<input>")
    }

    /// In the REPL, offers the line being run with `:name` corrected to `:suggestion`.
    func offerCommand(_ suggestion: String, for name: String) {
        fixes.offerCommand(suggestion, for: name)
    }

    /// The corrected line to offer, once, after `runLine`.
    func takeFixOffer() -> String? {
        fixes.take()
    }

    /// Prints diagnostics to standard error, compiler-style, and counts the first error.
    func report(_ diagnostics: [Diagnostic], source: String, firstLine: Int) {
        guard !diagnostics.isEmpty else { return }
        fixes.consider(diagnostics, source: source, firstLine: firstLine)
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            report.noteError(at: error.location, error.message, id: error.id)
        }
        let shown = options.showsWarnings ? diagnostics : diagnostics.filter { $0.severity == .error }
        if verbosity == .silent || shown.isEmpty { return }
        out.flush()
        var text = ""
        for var diagnostic in shown {
            // A message quotes what was typed (a marble, an expected text): made safe to print.
            diagnostic.message = TerminalText.escaped(diagnostic.message)
            diagnostic.location.file = TerminalText.escaped(diagnostic.location.file)
            diagnostic.help = diagnostic.help.map(TerminalText.escaped)
            var rendered = diagnostic.rendered(source: source, color: options.colorErrors)
            if !rendered.hasSuffix("\n") { rendered += "\n" }
            text += rendered
        }
        if let hint = DiagnosticID.explanationHint(for: shown.map(\.id), interactive: interactive) {
            text += Style(enabled: options.colorErrors).dim(hint) + "\n"
        }
        writeStandardError(text)
    }

    /// A shell error that is no language diagnostic (a command that could not be performed, a
    /// line that is not UTF-8): printed with its line in a script, and counted as a static error
    /// there; at the REPL only printed.
    @discardableResult
    func reportLineError(_ message: ShellMessage, at location: SourceLocation) -> StepResult {
        if !interactive { report.countCompileFailure() }
        if verbosity != .silent {
            out.flush()
            writeStandardError(message, at: location, interactive: interactive, color: options.colorErrors)
        }
        return interactive ? .ok : .compileErrors
    }

    /// A command's argument had errors (already reported): counted as a static error in a
    /// script, which stops; at the REPL only printed.
    func compileFailed() -> StepResult {
        if !interactive { report.countCompileFailure() }
        return interactive ? .ok : .compileErrors
    }

    // MARK: Commands

    /// Performs a `:`-command (one of `ShellCommand.all`, by name or alias).
    func command(_ name: String, argument: String, at location: SourceLocation) -> StepResult {
        if let command = ShellCommand.named(name) {
            return command.perform(context, argument.trimmingCharacters(in: .whitespaces), location)
        }
        var message = "unknown command ':\(name)'"
        if let suggestion = Suggestions.closest(to: name, among: ShellCommand.names) {
            message += "; did you mean ':\(suggestion)'?"
            offerCommand(suggestion, for: name)
        } else {
            message += " (:help lists the commands)"
        }
        return reportLineError(.unknownCommand(message), at: location)
    }

    /// Where the UTF-8 `offset` of `statement`'s text is in its file.
    private static func location(of offset: Int, in statement: Statement) -> SourceLocation {
        let before = String(decoding: statement.text.utf8.prefix(offset), as: UTF8.self)
        let lines = LineIndex.lines(of: before)
        let column = (lines.last?.unicodeScalars.count ?? 0) + 1
        var location = statement.location
        location.line += lines.count - 1
        location.column = lines.count == 1 ? location.column + column - 1 : column
        return location
    }

    /// Prints command output (to standard output, as text even in jsonl mode: commands are for people).
    func say(_ text: String) {
        output.say(text)
    }

    // MARK: Statements

    /// Performs one compiled statement.
    func perform(_ statement: Statement, source: String, firstLine: Int) -> StepResult {
        if StandardStreams.outputFailed { return .outputFailed }
        reapJobs()
        out.move(from: backgroundOut)
        if let (name, offset) = values.firstPending(in: statement.text) {
            return reportLineError(
                .noSuchJob(LastValues.notReady(name, jobRunning: Int(name.dropFirst()).flatMap(jobs.job) != nil)),
                at: Self.location(of: offset, in: statement))
        }
        switch session.execute(statement) {
        case .failure(let diagnostic):
            report([diagnostic], source: source, firstLine: firstLine)
            if diagnostic.severity == .error {
                report.countCompileFailure()
                return .compileErrors
            }
            return .ok
        case .success(let action):
            let result = perform(action, source: source, firstLine: firstLine)
            if let name = statement.finishedName { letReadersEnd(name) }
            if let name = statement.boundName { values.defined(name) }
            logStatement(statement, action, result)
            // A send into a paused run (or a job started beside it): what it starts at this instant
            // runs now; a finish may end it.
            if stepper.stepping != nil { stepper.settle(in: context) }
            return result
        }
    }

    /// Keeps a performed statement for `:save`: a foreground run with its record, an `expect` that held,
    /// anything else (a binding, a send, a job) as written.
    private func logStatement(_ statement: Statement, _ action: Action, _ result: StepResult) {
        switch action {
        case .run(let pipeline) where !pipeline.isBackground:
            guard result != .compileErrors, let last = runs.last else { return }
            log.append(run: statement.text, last.record, clock: options.clock, interrupted: result == .interrupted)
        case .expect:
            if result == .ok { log.append(line: statement.text) }
        case .run, .done:
            log.append(line: statement.text)
        case .send:
            if result == .ok { log.append(line: statement.text) }
        }
    }

    /// - Parameters:
    ///   - source: The text the statement is in, and its first line: where a channel send's
    ///     error is shown.
    func perform(_ action: Action, source: String, firstLine: Int) -> StepResult {
        switch action {
        case .run(let pipeline):
            if pipeline.isBackground {
                jobs.start(pipeline, runtime: session.runtime, options: options, output: output)
                return .ok
            }
            if let stepping = stepper.stepping {
                return reportLineError(.runIsPaused(stepping.elapsedText), at: pipeline.location)
            }
            return runForeground(pipeline)
        case .expect(let expectation, let location):
            return check(expectation, at: location)
        case .done:
            return .ok
        case .send(let send):
            return perform(send, source: source, firstLine: firstLine)
        }
    }

    /// How long a script's `c.finish` on the real clock gives the channel's readers to end.
    static let readersEndWait: UInt64 = 1_000_000_000

    /// After a script's `c.finish` on the real clock: the readers' iterations end on their own
    /// tasks a moment later, so the script waits for them (a second at most) before going on,
    /// and its end does not cancel jobs that were finishing. (A subject's finish completes its
    /// subscribers at once; on the virtual clock the session settles the instant.)
    private func letReadersEnd(_ name: String) {
        guard !interactive, options.clock == .real, (session.channelReaders(of: name) ?? 0) > 0 else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        while (session.channelReaders(of: name) ?? 0) > 0 && DispatchTime.now().uptimeNanoseconds - start < Self.readersEndWait {
            wake.wait(timeoutMilliseconds: 10)
            out.move(from: backgroundOut)
        }
        out.flush()
    }

    /// `c.send VALUE`: waits until a reader takes the value (`ChannelSendWait`), says so, and
    /// gives the prompt back on Ctrl-C; nobody to take it in a script is an error with its id.
    private func perform(_ send: ChannelSend, source: String, firstLine: Int) -> StepResult {
        var wait = ChannelSendWait(runtime: session.runtime, output: output, style: style, until: options.until)
        wait.holdsTime = stepper.stepping != nil
        switch wait.perform(send) {
        case .taken:
            return StandardStreams.outputFailed ? .outputFailed : .ok
        case .interrupted:
            return .interrupted
        case .notTaken(let diagnostic):
            report([diagnostic], source: source, firstLine: firstLine)
            report.countCompileFailure()
            return .compileErrors
        }
    }

    // MARK: Pipelines

    /// Runs a pipeline in the foreground until it ends, Ctrl-C, or (virtual clock) nothing is left
    /// to run; keeps its record for `expect` and its diagram.
    func runForeground(_ pipeline: Pipeline) -> StepResult {
        var run = ForegroundRun(runtime: session.runtime, out: out, backgroundOut: backgroundOut, wake: wake)
        run.printsEvents = !quiet
        run.formatter = formatter
        run.trace = options.trace
        run.recordLanes = recordsLanes
        run.catchingSignal = !interactive
        if drawsLive {
            run.live = (LiveDiagram(), { [unowned self] in diagramLines($0) ?? [] })
        }
        run.until = options.until
        if !quiet {
            let style = self.style
            run.onNote = { writeStandardError(style.dim("note: \($0)") + "\n") }
        }
        let (record, outcome, stopNote) = run.perform(pipeline)
        ended(record, text: pipeline.text, stopNote: stopNote)
        switch outcome {
        case .ended: return .ok
        case .interrupted: return .interrupted
        case .outputFailed: return .outputFailed
        }
    }

    /// A foreground run (or a stepped one) ended: it becomes the run `expect` checks, its diagram
    /// is printed, and a failure is counted.
    func ended(_ record: RunRecord, text: String, stopNote: String?) {
        runs.stopNote = stopNote
        runs.last = (record, text)
        values.bind("_", of: record, from: "the last run", session: session)
        finishDiagram(record, text: text)
        if case .failed = record.termination { report.countPipelineFailure() }
    }

    /// Forgets jobs that have ended, counts their failures and binds their values to `_N`.
    func reapJobs() {
        for (id, record) in jobs.reap() {
            if case .failed = record.termination { report.countPipelineFailure() }
            values.bind("_\(id)", of: record, from: "job \(id)", session: session)
        }
    }

    /// Cancels one job and waits briefly for its cancellation to be reported.
    func cancelJob(_ job: Job) {
        jobs.cancel(job)
        reapJobs()
    }

    /// Cancels every background job (the end of a script, `:reset`, `:clock`).
    func cancelAllJobs() {
        jobs.cancelAll(waitingOn: wake)
        reapJobs()
        backgroundOut.flush()
        out.flush()
    }

    /// Replaces the session (new clock or reset), cancelling jobs first.
    func replaceSession(clock: ClockMode) {
        stepper.end(cancelling: true, in: context)
        cancelAllJobs()
        options.clock = clock
        session = Session(runtime: Runtime(clock: clock))
        log.clear()
        values.forget()
        installNoteHandler()
        runs.last = nil
    }

    // MARK: Expectations

    func check(_ expectation: Expectation, at location: SourceLocation) -> StepResult {
        let session = self.session
        switch ExpectationCheck.verdict(expectation, on: runs.last?.record, clock: options.clock, subscriptions: { session.subscriptionCount(of: $0) }) {
        case .holds:
            report.noteExpectation(.init(location: location, text: "expect " + ExpectationCheck.describe(expectation)))
            if case .failed = expectation { report.forgivePipelineFailure() }
            if interactive && !quiet {
                out.write(style.green("✓") + " " + style.dim("expect \(ExpectationCheck.describe(expectation))") + "\n")
                out.flush()
            }
            return .ok
        case .fails(let verdict):
            // An endless timer stopped at the horizon: the failure says so too.
            // The verdict quotes the expected and actual texts: made safe for the terminal and the TAP report.
            let message = TerminalText.escapedLines(verdict + (runs.stopNote.map { "\n  note: \($0)" } ?? ""))
            report.countExpectationFailure()
            report.noteExpectation(.init(location: location, text: "expect " + ExpectationCheck.describe(expectation), failure: message))
            if !quiet {
                out.flush()
                writeStandardError("\(TerminalText.escaped(location.file)):\(location.line): " + style.red("expect failed") + ": \(message)\n")
            }
            return .expectationFailed(message, location)
        }
    }
}
