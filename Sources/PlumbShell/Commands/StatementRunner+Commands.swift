import Foundation
import PipeLanguage

/// Performing `:`-commands: the lookup in `ShellCommand.all`, what commands print, and the
/// longer commands' bodies.
extension StatementRunner {
    /// Performs a `:`-command (one of `ShellCommand.all`, by name or alias).
    func command(_ name: String, argument: String, at location: SourceLocation) -> StepResult {
        if let command = ShellCommand.named(name) {
            return command.perform(self, argument.trimmingCharacters(in: .whitespaces), location)
        }
        var message = "unknown command ':\(name)'"
        if let suggestion = Suggestions.closest(to: name, among: ShellCommand.names) {
            message += "; did you mean ':\(suggestion)'?"
            offerCommand(suggestion, for: name)
        } else {
            message += " (:help lists the commands)"
        }
        return commandError(.unknownCommand(message), at: location)
    }

    /// Prints command output (to standard output, as text even in jsonl mode: commands are for people).
    func say(_ text: String) {
        guard !quiet else { return }
        out.write(text.hasSuffix("\n") ? text : text + "\n")
        out.flush()
    }

    func usage(_ syntax: String, at location: SourceLocation) -> StepResult {
        commandError(.usage(syntax), at: location)
    }

    /// A command that could not be performed: an error message, and a static error for the exit code.
    func commandError(_ message: ShellMessage, at location: SourceLocation) -> StepResult {
        reportLineError(message, at: location)
    }

    // MARK: Help

    func help(_ topic: String) -> String {
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        if name.isEmpty { return Self.overview(style: style) }
        if let entry = Catalog.entry(named: name) { return EntryHelp.text(entry, style: style) }
        if let command = ShellCommand.named(name) { return command.help(style: style) }
        if name == "diagnostics" { return HelpText.diagnostics }
        if let id = DiagnosticID.anyNamed(name) { return HelpText.diagnostic(id) }
        var message = "no help for '\(topic)'"
        let names = HelpText.topics(commands: Catalog.entries.flatMap { [$0.name] + $0.aliases } + ShellCommand.names)
        if let suggestion = Suggestions.closest(to: name, among: names) {
            message += "; did you mean '\(suggestion)'?"
        }
        return message
    }

    static func overview(style: Style) -> String {
        var lines = [
            style.bold("Plumb") + ": type a pipeline and watch it run.",
            "",
            "  just 1 | asyncMap delay 100 | retry 3 | sink",
            "  from [1, 2, 3] | map { $0 * 10 } | filter { $0 > 10 }     " + style.dim("# sink is implied"),
            "  let ticks = interval 100ms | take 5                        " + style.dim("# bind, do not run"),
            "  let s = subject",
            "  s | map { $0 * 2 } | sink &                                " + style.dim("# & runs a background job"),
            "  s.send 1",
            "",
            style.bold("Keys") + ": Tab completes, Up/Ctrl-R recall history, Ctrl-C cancels the running pipeline",
            "or clears the line, Ctrl-D on an empty line quits.",
            "",
            style.bold("Commands"),
        ]
        for command in ShellCommand.all {
            let head = ":\(command.name) \(command.arguments)".padding(toLength: 22, withPad: " ", startingAt: 0)
            lines.append("  \(head)\(command.summary)")
        }
        lines.append("")
        lines.append(":ops lists the operators; :help NAME describes one (:help retry).")
        lines.append(":help diagnostics lists the error and warning codes; :help E302 or :help unknown-operator shows one.")
        return lines.joined(separator: "\n")
    }

    static func operatorList(style: Style) -> String {
        let groups: [(String, CatalogEntry.Kind)] = [("Sources", .source), ("Operators", .operator), ("Terminals", .terminal)]
        var lines: [String] = []
        for (title, kind) in groups {
            let entries = Catalog.entries.filter { $0.kind == kind }.sorted { $0.name < $1.name }
            guard !entries.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(style.bold(title))
            let width = min(24, entries.map(\.name.count).max() ?? 0)
            for entry in entries {
                let aliases = entry.aliases.isEmpty ? "" : style.dim(" (\(entry.aliases.joined(separator: ", ")))")
                lines.append("  " + entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + entry.summary + aliases)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension StatementRunner {
    /// `:marbles [on|off|N]`.
    func marblesCommand(_ argument: String, at location: SourceLocation) -> StepResult {
        switch argument {
        case "on": options.marbles = true
        case "off": options.marbles = false
        case "":
            // A paused run is the one being looked at.
            if stepping != nil {
                showPause()
                return .ok
            }
            guard let last else { return commandError(.nothingRecorded("no pipeline has run yet"), at: location) }
            guard let lines = diagramLines(last.record) else {
                return commandError(.nothingRecorded("the last run was not recorded (:marbles on records the next ones)"), at: location)
            }
            say(lines.joined(separator: "\n"))
            return .ok
        default:
            guard let id = ShellCommand.jobNumber(argument) else {
                return usage(":marbles on|off|N", at: location)
            }
            guard let recorder = jobs.recorder(id) else {
                return commandError(.noSuchJob("no job \(id)"), at: location)
            }
            guard let lines = diagramLines(recorder.partialSnapshot) else {
                return commandError(.nothingRecorded("job \(id) was not recorded (it started with :marbles off)"), at: location)
            }
            say(lines.joined(separator: "\n"))
            return .ok
        }
        say(style.dim("marbles are \(options.marbles ? "on" : "off")"))
        return .ok
    }

    /// `:export OUT.svg`: the last run's diagram as a standalone SVG.
    func exportCommand(_ path: String, at location: SourceLocation) -> StepResult {
        guard !path.isEmpty else { return usage(":export FILE.svg", at: location) }
        guard let last else { return commandError(.nothingRecorded("no pipeline has run yet"), at: location) }
        let run = last.record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(last.record.duration))
        guard !run.lanes.isEmpty else {
            return commandError(.nothingRecorded("the last run was not recorded (:marbles on records the next ones)"), at: location)
        }
        if let problem = Self.writeSVG([run], titles: [last.text], to: path) { return commandError(.cannotWriteFile(problem), at: location) }
        say(style.dim("wrote \(path)"))
        return .ok
    }
}
