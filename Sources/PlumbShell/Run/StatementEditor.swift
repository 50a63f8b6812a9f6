import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// `:edit` (psql's `\e`): the last statement typed, or job N's (`:edit N`), opened in `$VISUAL`
/// or `$EDITOR` (`vi` when neither is set); when the editor exits with the text changed, it runs
/// as one statement (its lines joined) and goes into the history.
///
/// The component owns the last statement typed and the way into the prompt's history; the rest
/// (job texts, output, running the edited line) comes through the `CommandContext`.
final class StatementEditor {
    /// The last statement typed at the prompt (`:edit` opens it).
    private(set) var lastStatement: String?
    /// Puts a line in the prompt's history (the REPL sets it: an edited statement goes there).
    var addToHistory: ((String) -> Void)?

    /// A line typed at the prompt: a statement (not a `:`-command) is the one `:edit` opens.
    func typed(_ line: String) {
        if !line.trimmingCharacters(in: .whitespaces).hasPrefix(":") { lastStatement = line }
    }

    /// `:edit [N]`.
    func edit(_ argument: String, at location: SourceLocation, in context: CommandContext) -> StepResult {
        guard context.output.interactive else { return context.commandError(.needsTerminal(":edit"), at: location) }
        let original: String
        if argument.isEmpty {
            guard let lastStatement else {
                return context.commandError(.nothingToEdit("nothing typed yet to edit (:edit N edits job N's pipeline)"), at: location)
            }
            original = lastStatement
        } else if let id = ShellCommand.jobNumber(argument) {
            context.reapJobs()
            guard let text = context.jobs.text(id) else { return context.commandError(.noSuchJob("no job \(id)"), at: location) }
            original = text
        } else {
            return context.usage(":edit [N]", at: location)
        }
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let path = NSTemporaryDirectory() + "/plumb-edit-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pipe"
        defer { unlink(path) }
        if let problem = StatementRunner.writeFile(original + "\n", to: path) { return context.commandError(.cannotWriteFile(problem), at: location) }
        context.output.out.flush()
        if let problem = Self.runEditor(editor, path: path) { return context.commandError(problem, at: location) }
        guard let edited = try? String(contentsOfFile: path, encoding: .utf8) else {
            return context.commandError(.editorFailed("cannot read \(path) back after the editor"), at: location)
        }
        let statement = Self.oneStatement(edited)
        if statement.isEmpty || statement == Self.oneStatement(original) {
            context.say(context.style.dim("unchanged: nothing run"))
            return .ok
        }
        // Shown as if typed, so the screen says what ran; the editor's text is outside text, so a
        // control character in it is shown as its picture, not sent to the terminal.
        context.say("plumb> " + TerminalText.escaped(statement))
        addToHistory?(statement)
        return context.runLine(statement)
    }

    /// The edited text as one statement: its lines joined by spaces, blank and `#` comment lines
    /// left out (a joined comment would swallow the rest).
    static func oneStatement(_ text: String) -> String {
        LineIndex.lines(of: text)
            .map { LineIndex.content(of: $0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .joined(separator: " ")
    }

    /// Runs `editor FILE` through `/bin/sh` (so `EDITOR="code --wait"` works) on this terminal
    /// and waits for it.
    ///
    /// posix_spawn, not Foundation's `Process`: that puts the child in a process group of its own,
    /// which the terminal then treats as a background job (vim: "Error reading input").
    /// - Returns: The problem, nil when it exited with status 0.
    private static func runEditor(_ editor: String, path: String) -> ShellMessage? {
        let words: [String] = ["/bin/sh", "-c", editor + " \"$1\"", "plumb-edit", path]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The shell ignores Ctrl-\ and catches Ctrl-C; the editor gets the defaults back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGPIPE, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard spawned == 0 else { return .editorFailed("cannot start the editor '\(editor)': \(ScriptFile.reason(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f != 0 { return .editorFailed("the editor '\(editor)' was killed by signal \(status & 0x7f); nothing run") }
        let code = (status >> 8) & 0xff
        if code == 127 { return .editorFailed("the editor '\(editor)' was not found (set VISUAL or EDITOR); nothing run") }
        if code != 0 { return .editorFailed("the editor '\(editor)' exited with status \(code); nothing run") }
        return nil
    }
}
