import Foundation
import PipeLanguage

/// One `:`-command: its name, argument syntax and summary (for `:help`, completion and suggestions).
struct ShellCommand: Sendable {
    let name: String
    let arguments: String
    let summary: String

    static let all: [ShellCommand] = [
        ShellCommand(name: "help", arguments: "[NAME]", summary: "this overview, an operator's signature, summary, Combine equivalent and example, or a diagnostic's code"),
        ShellCommand(name: "ops", arguments: "", summary: "list every source, operator and terminal"),
        ShellCommand(name: "type", arguments: "PIPELINE", summary: "the pipeline's Combine type and each stage's failure type"),
        ShellCommand(name: "swift", arguments: "PIPELINE", summary: "the pipeline as a Swift statement to paste: import Reactive, the chain, a printing sink"),
        ShellCommand(name: "bindings", arguments: "", summary: "list the names bound with let"),
        ShellCommand(name: "jobs", arguments: "", summary: "list the background jobs"),
        ShellCommand(name: "cancel", arguments: "N|all", summary: "cancel background job N, or all of them"),
        ShellCommand(name: "trace", arguments: "on|off", summary: "show each stage's subscribe, request, values, completion and cancel"),
        ShellCommand(name: "marbles", arguments: "[on|off|N]", summary: "marble diagrams after each run (on by default), or the last run's, or job N's"),
        ShellCommand(name: "export", arguments: "FILE.svg", summary: "write the last run's marble diagram as an SVG picture"),
        ShellCommand(name: "clock", arguments: "real|virtual", summary: "switch clocks (starts a fresh session: bindings are cleared)"),
        ShellCommand(name: "load", arguments: "FILE", summary: "run a .pipe script in this session"),
        ShellCommand(name: "reset", arguments: "", summary: "cancel every job and forget every binding"),
        ShellCommand(name: "quit", arguments: "", summary: "leave plumb (Ctrl-D does too)"),
    ]

    static var names: [String] { all.map(\.name) }
}

extension Engine {
    /// Performs a `:`-command.
    func command(_ name: String, argument rawArgument: String, at location: SourceLocation) -> StepResult {
        let argument = rawArgument.trimmingCharacters(in: .whitespaces)
        switch name {
        case "help": say(help(argument))
        case "ops": say(Self.operatorList(style: style))
        case "type":
            guard !argument.isEmpty else { return usage(":type PIPELINE", at: location) }
            switch session.typeDescription(of: argument) {
            case .success(let description): say(description)
            case .failure(let diagnostic): report([diagnostic], source: argument, firstLine: 1)
            }
        case "swift":
            guard !argument.isEmpty else { return usage(":swift PIPELINE", at: location) }
            switch session.swiftStatement(of: argument) {
            case .success(let code): say(code)
            case .failure(let diagnostic): report([diagnostic], source: argument, firstLine: 1)
            }
        case "bindings":
            let bindings = session.bindingSummaries()
            if bindings.isEmpty {
                say(style.dim("no bindings yet: let NAME = PIPELINE"))
            } else {
                let width = bindings.map(\.name.count).max() ?? 0
                say(bindings.map { style.bold($0.name.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + $0.summary }.joined(separator: "\n"))
            }
        case "jobs":
            reapJobs()
            if jobs.isEmpty {
                say(style.dim("no background jobs"))
            } else {
                let now = session.runtime.now()
                say(jobs.jobs.map { job in
                    let record = job.recorder.snapshot
                    let count = record.count == 1 ? "1 value" : "\(record.count) values"
                    return "[\(job.id)] running  \(EventFormatter.durationText(now - job.recorder.start))  \(count)  \(job.text)"
                }.joined(separator: "\n"))
            }
        case "cancel":
            reapJobs()
            if argument == "all" {
                cancelAllJobs()
            } else if let id = Int(argument.hasPrefix("%") ? String(argument.dropFirst()) : argument) {
                guard let job = jobs.job(id) else {
                    return commandError("no job \(id)" + (jobs.isEmpty ? " (no jobs are running)" : "; :jobs lists them"), at: location)
                }
                cancelJob(job)
            } else {
                return usage(":cancel N|all", at: location)
            }
        case "marbles": return marblesCommand(argument, at: location)
        case "export": return exportCommand(argument, at: location)
        case "trace":
            switch argument {
            case "on": trace = true
            case "off": trace = false
            case "": break
            default: return usage(":trace on|off", at: location)
            }
            say(style.dim("trace is \(trace ? "on" : "off")"))
        case "clock":
            let mode: ClockMode
            switch argument {
            case "real": mode = .real
            case "virtual": mode = .virtual
            case "":
                say(style.dim("clock is \(session.runtime.clock == .virtual ? "virtual" : "real")"))
                return .ok
            default: return usage(":clock real|virtual", at: location)
            }
            if mode == session.runtime.clock {
                say(style.dim("clock is already \(argument)"))
            } else {
                let hadBindings = !session.bindingNames.isEmpty
                replaceSession(clock: mode)
                say(style.dim("clock is \(argument)" + (hadBindings ? " (bindings cleared)" : "")))
            }
        case "load":
            guard !argument.isEmpty else { return usage(":load FILE", at: location) }
            return load(argument, at: location)
        case "reset":
            replaceSession(clock: session.runtime.clock)
            say(style.dim("session reset"))
        case "quit", "exit", "q":
            return .quit
        default:
            var message = "unknown command ':\(name)'"
            if let suggestion = Suggestions.closest(to: name, among: ShellCommand.names) {
                message += "; did you mean ':\(suggestion)'?"
                offerCommand(suggestion, for: name)
            } else {
                message += " (:help lists the commands)"
            }
            return commandError(message, at: location)
        }
        return .ok
    }

    /// Cancels one job and waits briefly for its cancellation to be reported.
    private func cancelJob(_ job: Job) {
        if !job.recorder.isDone {
            job.cancellable.cancel()
            let deadline = DispatchTime.now().uptimeNanoseconds + 100_000_000
            while !job.recorder.isDone && DispatchTime.now().uptimeNanoseconds < deadline { usleep(1000) }
            if !job.recorder.isDone { job.recorder.forceCancelled() }
        }
        reapJobs()
    }

    /// Prints command output (to standard output, as text even in jsonl mode: commands are for people).
    func say(_ text: String) {
        guard !quiet else { return }
        out.write(text.hasSuffix("\n") ? text : text + "\n")
        out.flush()
    }

    func usage(_ syntax: String, at location: SourceLocation) -> StepResult {
        commandError("usage: \(syntax)", at: location)
    }

    /// A command that could not be performed: an error message, and a static error for the exit code.
    func commandError(_ message: String, at location: SourceLocation) -> StepResult {
        out.flush()
        let prefix = interactive ? "" : "\(location.file):\(location.line): "
        writeStandardError(prefix + style.red("error") + ": \(Diagnostic.capped(message))\n")
        if !interactive { compileFailures += 1 }
        return interactive ? .ok : .compileErrors
    }

    // MARK: Help

    func help(_ topic: String) -> String {
        let name = topic.hasPrefix(":") ? String(topic.dropFirst()) : topic
        if name.isEmpty { return Self.overview(style: style) }
        if let entry = Catalog.entry(named: name) {
            var lines = [style.bold(entry.signature), "  \(entry.summary)"]
            if !entry.aliases.isEmpty { lines.append("  aliases: \(entry.aliases.joined(separator: ", "))") }
            lines.append("  Combine: \(entry.combine)")
            lines.append("  example: \(entry.example)")
            return lines.joined(separator: "\n")
        }
        if let command = ShellCommand.all.first(where: { $0.name == name }) {
            return style.bold(":\(command.name) \(command.arguments)") + "\n  \(command.summary)"
        }
        if name == "diagnostics" { return HelpText.diagnostics }
        if let id = DiagnosticID.named(name) { return HelpText.diagnostic(id) }
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
