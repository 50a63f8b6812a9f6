import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// The interactive shell: readline prompt, multi-line input, history, completion, Ctrl-C, jobs.
struct REPL {
    var options: ShellOptions

    /// `plumb> `, or `plumb [paused 150 ms]> ` while `:step` holds a run.
    private func prompt(_ runner: StatementRunner) -> String {
        styledPrompt(runner.pausedAt.map { "plumb [paused \($0)]> " } ?? "plumb> ")
    }
    private var continuationPrompt: String { styledPrompt("  ...> ") }
    /// The prompts as printed (not through readline) before a queued pasted line.
    private let plainPrompt = "plumb> "
    private let plainContinuation = "  ...> "

    /// Readline needs invisible escape sequences bracketed by \001 and \002 to measure the prompt.
    private func styledPrompt(_ text: String) -> String {
        options.color ? "\u{1}\u{1B}[1;34m\u{2}\(text)\u{1}\u{1B}[0m\u{2}" : text
    }

    func run() -> Int32 {
        Signals.install()
        // No keypress kills the shell: Ctrl-\ (SIGQUIT) is ignored too.
        signal(SIGQUIT, SIG_IGN)
        let wake = WakePipe()
        let background = OutputSink(fd: STDOUT_FILENO, deferred: true, onPending: { wake.signal() })
        // The REPL draws a marble diagram after each foreground pipeline unless `:marbles off`.
        var replOptions = options
        replOptions.marbles = true
        let runner = StatementRunner(options: replOptions, out: OutputSink(fd: STDOUT_FILENO), backgroundOut: background, wake: wake, interactive: true)
        let historyPath = HistoryFile.path(environment: ProcessInfo.processInfo.environment)
        let historyProblem = HistoryFile.problem(at: historyPath)
        let editor = LineEditor(historyPath: historyPath, saving: historyProblem == nil)
        runner.confirm = { question in Self.confirm(question) }
        runner.addToHistory = { editor.remember($0) }
        let style = runner.style
        runner.say(style.bold("plumb \(PlumbMain.version)") + style.dim(": type a pipeline, :help for help, Ctrl-D to quit"))
        if let historyProblem {
            writeStandardError(.historyNotSaved(historyPath, historyProblem))
        }

        var pending = ""
        // The later lines of a bracketed paste (which arrives as one input): each runs as if
        // typed after the one before, so a line that fails does not take the others with it.
        var queued: [String] = []
        loop: while true {
            refreshCompletion(runner)
            var input: LineInput
            if !queued.isEmpty {
                let line = queued.removeFirst()
                OutputSink.writeAll(fd: STDOUT_FILENO, Array(((pending.isEmpty ? plainPrompt : plainContinuation) + line + "\n").utf8))
                input = .line(line)
            } else {
                input = editor.readLine(prompt: pending.isEmpty ? prompt(runner) : continuationPrompt, wake: wake) {
                    runner.reapJobs()
                    return background.take()
                }
                if case .line(let text) = input, text.utf8.contains(UInt8(ascii: "\n")) {
                    var lines = LineIndex.lines(of: text).map { String(LineIndex.content(of: $0)) }
                    if lines.last?.isEmpty == true { lines.removeLast() }
                    input = .line(lines.first ?? "")
                    queued = Array(lines.dropFirst())
                }
            }
            switch input {
            case .endOfInput:
                if pending.isEmpty {
                    OutputSink.writeAll(fd: STDOUT_FILENO, Array("\n".utf8))
                    break loop
                }
                pending = ""  // Ctrl-D in a continuation drops the unfinished statement
                OutputSink.writeAll(fd: STDOUT_FILENO, Array("\n".utf8))
            case .interrupted:
                // Ctrl-C at a paused run's prompt cancels it.
                if pending.isEmpty && runner.stepping != nil {
                    _ = TerminalEcho.withoutControlEcho { runner.command("stop", argument: "", at: Self.typed) }
                }
                pending = ""
            case .line(let line):
                pending += pending.isEmpty ? line : "\n" + line
                if !pending.hasPrefix(":") && Session.needsContinuation(pending) { continue }
                let text = pending
                pending = ""
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty {
                    // Enter on an empty line steps a paused run.
                    if runner.stepping != nil {
                        let result = TerminalEcho.withoutControlEcho { runner.command("next", argument: "", at: Self.typed) }
                        if result == .outputFailed { break loop }
                    }
                    continue
                }
                editor.remember(text.replacingOccurrences(of: "\n", with: " "))
                let result = TerminalEcho.withoutControlEcho { runner.runLine(text) }
                if result == .quit || result == .outputFailed { break loop }
                offerFix(runner.takeFixOffer(), editor: editor, morePending: !queued.isEmpty)
                let output = background.take()
                if !output.isEmpty { OutputSink.writeAll(fd: STDOUT_FILENO, output) }
            }
        }
        _ = runner.finish()
        let output = background.take()
        if !output.isEmpty { OutputSink.writeAll(fd: STDOUT_FILENO, output) }
        editor.close()
        return ExitCode.success
    }

    /// Where a line typed at the prompt is (for the errors of a command the REPL performs itself).
    private static let typed = SourceLocation(file: "<input>", line: 1, column: 1)

    /// Asks a yes/no question on the terminal: one key, `y` is yes, anything else (Ctrl-C too) no.
    static func confirm(_ question: String) -> Bool {
        OutputSink.writeAll(fd: STDOUT_FILENO, Array(question.utf8))
        let terminal = RawTerminal()
        defer { terminal.restore() }
        var key: UInt8?
        while key == nil {
            key = terminal.readKey(timeoutMilliseconds: 1000)
            // Standard input closed: no answer will come.
            if key == nil, isatty(STDIN_FILENO) == 0 { break }
        }
        let yes = key == UInt8(ascii: "y") || key == UInt8(ascii: "Y")
        OutputSink.writeAll(fd: STDOUT_FILENO, Array((yes ? "y\n" : "n\n").utf8))
        return yes
    }

    /// After a line failed with a fix-it: shows the corrected line and offers it on the next
    /// prompt without typing it there (what the person types is all that runs): dimmed after the
    /// typed text, taken with → or Tab; without colour (dim text could not be told from typed
    /// text), or while lines of a paste are still coming, one Up away in the history instead.
    /// Only a one-line correction: a continued statement is not put back on one line.
    private func offerFix(_ fixed: String?, editor: LineEditor, morePending: Bool) {
        guard let fixed, !fixed.contains("\n") else { return }
        let style = Style(enabled: options.colorErrors)
        let shown = TerminalText.escaped(fixed)
        if morePending || editor.hasPendingInput {
            writeStandardError(style.dim("fix: \(shown)  (more lines follow: press Up to get it back)") + "\n")
            editor.offerInHistory(fixed)
            return
        }
        guard options.color else {
            writeStandardError(style.dim("fix: \(shown)  (press Up to get it)") + "\n")
            editor.offerInHistory(fixed)
            return
        }
        writeStandardError(style.dim("fix: \(shown)  (→ or Tab takes it; Enter runs what you type)") + "\n")
        editor.offerNextLine(fixed)
    }

    private func refreshCompletion(_ runner: StatementRunner) {
        runner.reapJobs()
        var words = CompletionWords()
        for entry in Catalog.entries {
            let names = [entry.name] + entry.aliases
            switch entry.kind {
            case .source: words.sources += names
            default: words.operators += names
            }
        }
        words.bindings = runner.session.bindingNames
        for binding in runner.session.bindingSummaries() where binding.isSubject || binding.isChannel {
            words.senders[binding.name] = binding.isChannel ? ["finish", "send"] : ["fail", "finish", "send"]
            if binding.isChannel { words.channels.insert(binding.name) }
        }
        words.commands = ShellCommand.names.map { ":" + $0 }
        words.jobs = runner.jobs.running.map { String($0.id) }
        LineEditor.completionWords.withLock { $0 = words }
    }
}
