import Foundation
import PipeLanguage

/// `:help`'s texts: the overview, one topic (an operator, a command, a diagnostic), and `:ops`'s
/// list. Pure functions of the catalog and the command table.
enum ShellHelp {
    static func help(_ topic: String, style: Style) -> String {
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        if name.isEmpty { return overview(style: style) }
        if let entry = Catalog.entry(named: name) { return EntryHelp.text(entry, style: style) }
        if let command = ShellCommand.named(name) { return command.help(style: style) }
        if name == "diagnostics" { return HelpText.diagnostics }
        if let id = DiagnosticID.anyNamed(name) { return HelpText.diagnostic(id) }
        if let combine = CombineNames.entry(named: name) { return HelpText.combineOnly(combine, style: style) }
        return TerminalText.escaped(unknownTopic(topic).text)
    }

    /// The error for a topic `:help` has nothing about (nil when it has), with the closest topic.
    static func problem(with topic: String) -> ShellMessage? {
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        // The language's topics (the catalog, diagnostics, Combine names) are `plumb help`'s too.
        let known = name.isEmpty || ShellCommand.named(name) != nil || HelpText.isTopic(name)
        return known ? nil : unknownTopic(topic)
    }

    private static func unknownTopic(_ topic: String) -> ShellMessage {
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        var message = "no help for '\(topic)'"
        let names = HelpText.topics(commands: Catalog.entries.flatMap { [$0.name] + $0.aliases } + ShellCommand.names)
        if let suggestion = Suggestions.closest(to: name, among: names) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (:help lists the commands, :ops the operators, :help diagnostics the error codes)"
        }
        return ShellMessage(.unknownHelpTopic, message)
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
            "  let c = channel                                            " + style.dim("# c.send 1 waits until a reader takes it"),
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
