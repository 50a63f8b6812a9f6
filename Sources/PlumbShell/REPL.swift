import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// The interactive shell: readline prompt, multi-line input, history, completion, Ctrl-C, jobs.
struct REPL {
    var options: ShellOptions

    private var prompt: String { styledPrompt("plumb> ") }
    private var continuationPrompt: String { styledPrompt("  ...> ") }

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
        let style = runner.style
        runner.say(style.bold("plumb \(PlumbMain.version)") + style.dim(": type a pipeline, :help for help, Ctrl-D to quit"))
        if let historyProblem {
            writeStandardError(.historyNotSaved(historyPath, historyProblem))
        }

        var pending = ""
        loop: while true {
            refreshCompletion(runner)
            let input = editor.readLine(prompt: pending.isEmpty ? prompt : continuationPrompt, wake: wake) {
                runner.reapJobs()
                return background.take()
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
                pending = ""
            case .line(let line):
                pending += pending.isEmpty ? line : "\n" + line
                if !pending.hasPrefix(":") && Session.needsContinuation(pending) { continue }
                let text = pending
                pending = ""
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty { continue }
                editor.remember(text.replacingOccurrences(of: "\n", with: " "))
                let result = TerminalEcho.withoutControlEcho { runner.runLine(text) }
                if result == .quit || result == .outputFailed { break loop }
                offerFix(runner.takeFixOffer(), editor: editor)
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

    /// After a line failed with a fix-it: shows the corrected line and puts it on the next prompt.
    /// Only a one-line correction: a continued statement is not put back on one line.
    private func offerFix(_ fixed: String?, editor: LineEditor) {
        guard let fixed, !fixed.contains("\n") else { return }
        let style = Style(enabled: options.colorErrors)
        writeStandardError(style.dim("fix: \(fixed)  (press Enter to run it, or edit it)") + "\n")
        editor.prefillNextLine(fixed)
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
        words.commands = ShellCommand.names.map { ":" + $0 }
        words.jobs = runner.jobs.jobs.map { String($0.id) }
        LineEditor.completionWords.withLock { $0 = words }
    }
}
