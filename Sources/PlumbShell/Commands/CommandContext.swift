import Foundation
import PipeLanguage

/// What a `:`-command, and the components it drives, may touch: the session and the settings,
/// where output goes, the errors a command reports, the components (jobs, stepping, edit, load)
/// and the few moves of the shell a command makes (replace the session, run text, end a run).
/// It holds the statement runner privately, so a command cannot reach the rest of it (the report,
/// the fix-it offers).
///
/// Made per command by `StatementRunner.command(_:argument:at:)`; used on the main thread only.
///
/// ```swift
/// ShellCommand(name: "hello", arguments: "", summary: "say hello", completion: .nothing) { context, _, _ in
///     context.say("hello")
///     return .ok
/// }
/// ```
struct CommandContext {
    private unowned let runner: StatementRunner

    init(_ runner: StatementRunner) { self.runner = runner }

    // MARK: Session and settings

    /// The session statements run in (replaced by `replaceSession`).
    var session: Session { runner.session }
    /// The settings; `:trace` and `:marbles` change them.
    var options: ShellOptions {
        get { runner.options }
        nonmutating set { runner.options = newValue }
    }
    var style: Style { runner.style }
    var formatter: EventFormatter { runner.formatter }

    // MARK: Output

    /// Where output goes: standard output, background output, the wake pipe, whether this is the
    /// REPL, how much is printed.
    var output: ShellOutput { runner.output }

    /// Prints command output (to standard output, as text even in jsonl mode: commands are for people).
    func say(_ text: String) { runner.say(text) }

    /// The command's argument is not what it takes: says its syntax.
    func usage(_ syntax: String, at location: SourceLocation) -> StepResult {
        commandError(.usage(syntax), at: location)
    }

    /// A command that could not be performed: an error message, and a static error for the exit code.
    func commandError(_ message: ShellMessage, at location: SourceLocation) -> StepResult {
        runner.reportLineError(message, at: location)
    }

    /// Diagnostics about a command's pipeline argument (`:type`, `:swift`, `:compare`, `:step`),
    /// said where that argument is: the command's file and line, columns counted in the line as
    /// written (`:type ` and then the argument), not at `<type>:1`. Fix-its move with them, so the
    /// REPL offers the corrected command line. An error is a static error in a script (exit 65),
    /// as for any other bad line.
    @discardableResult
    func reportArgument(_ diagnostics: [Diagnostic], of command: String, argument: String, at location: SourceLocation) -> StepResult {
        let prefix = ":\(command) "
        let columns = prefix.unicodeScalars.count
        let bytes = prefix.utf8.count
        let argumentFile = diagnostics.first?.location.file
        func moved(_ at: SourceLocation) -> SourceLocation {
            at.file == argumentFile ? SourceLocation(file: location.file, line: location.line, column: at.column + columns) : at
        }
        let placed = diagnostics.map { diagnostic in
            Diagnostic(
                id: diagnostic.id, message: diagnostic.message, location: moved(diagnostic.location), length: diagnostic.length,
                notes: diagnostic.notes.map { note in
                    Diagnostic.Note(
                        note.message,
                        range: note.range.map { SourceRange(location: moved($0.location), offset: $0.offset + bytes, length: $0.length) })
                },
                help: diagnostic.help,
                fixIts: diagnostic.fixIts.map { FixIt(offset: $0.offset + bytes, length: $0.length, replacement: $0.replacement) },
                offset: diagnostic.offset + bytes)
        }
        // The line as written, on its own line number, so the excerpt and caret show it.
        let source = String(repeating: "\n", count: max(0, location.line - 1)) + prefix + argument
        runner.report(placed, source: source, firstLine: 1)
        return diagnostics.contains { $0.severity == .error } ? compileFailed() : .ok
    }

    /// A command's argument had errors (already reported): a static error in a script.
    func compileFailed() -> StepResult { runner.compileFailed() }

    /// The diagram of a recorded run, as lines (nil when nothing was recorded).
    func diagramLines(_ record: RunRecord) -> [String]? { runner.diagramLines(record) }

    // MARK: Components

    var jobs: JobControl { runner.jobs }
    var stepper: Stepper { runner.stepper }
    var editor: StatementEditor { runner.editor }
    var loader: ScriptLoader { runner.loader }
    /// What each `_`/`_N` binding stands for.
    var valueBindings: [String: String] { runner.values.described }
    /// The last foreground run and its text.
    var last: (record: RunRecord, text: String)? { runner.runs.last }

    /// The session written as a script (`:save`).
    var sessionScript: String { runner.log.script() }

    /// Keeps a line for `:save` (a stepped run's commands).
    func log(_ line: String) { runner.log.append(line: line) }

    /// Keeps a stepped run for `:save`.
    func logRun(_ record: RunRecord) { runner.log.append(run: nil, record, clock: runner.options.clock) }

    // MARK: Moves

    /// Forgets jobs that have ended (binding their `_N`).
    func reapJobs() { runner.reapJobs() }

    func cancelJob(_ job: Job) { runner.cancelJob(job) }

    func cancelAllJobs() { runner.cancelAllJobs() }

    /// A fresh session on `clock`: jobs cancelled, bindings and the log forgotten.
    func replaceSession(clock: ClockMode) { runner.replaceSession(clock: clock) }

    /// Runs text in the session (`:load`).
    func run(text: String, file: String) -> StepResult { runner.run(text: text, file: file) }

    /// Runs a line as if typed at the prompt (`:edit`).
    func runLine(_ line: String) -> StepResult { runner.runLine(line) }

    /// A stepped run ended: it becomes the last run, as a foreground run does.
    func ended(_ record: RunRecord, text: String, stopNote: String?) {
        runner.ended(record, text: text, stopNote: stopNote)
    }
}
