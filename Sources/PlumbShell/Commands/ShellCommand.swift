import Foundation
import PipeLanguage

/// One `:`-command and everything about it: its name and aliases, argument syntax, summary (for
/// `:help` and the overview), what Tab completes after it, and what it does. `ShellCommand.all`
/// is the one table the statement runner, `:help`, completion and the unknown-command suggestion
/// read; a test checks every entry has help, a completion and a test of its own.
///
/// ```swift
/// ShellCommand.named("q")?.name   // "quit"
/// ```
struct ShellCommand: Sendable {
    /// What Tab completes after the command's name.
    enum Completion: Sendable, Equatable {
        /// It takes no argument.
        case nothing
        /// One of these words.
        case words([String])
        /// A file name.
        case files
        /// A pipeline: sources, operators and bindings, as at the prompt.
        case pipeline
        /// A job number, or one of these words.
        case jobs(or: [String])
        /// Anything `:help` describes: sources, operators, commands, `diagnostics`.
        case helpTopics
    }

    let name: String
    var aliases: [String] = []
    /// The argument syntax `:help` shows (`on|off`), empty for none.
    let arguments: String
    let summary: String
    /// More for `:help NAME` (how the command works with others), empty for none.
    var details: String = ""
    let completion: Completion
    /// Performs the command with its argument (blanks trimmed), touching only what the context exposes.
    let perform: @Sendable (CommandContext, _ argument: String, SourceLocation) -> StepResult

    /// The command with this name or alias.
    static func named(_ name: String) -> ShellCommand? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    static var names: [String] { all.map(\.name) }

    /// `:help NAME`'s text for this command.
    func help(style: Style) -> String {
        var text = style.bold(":\(name) \(arguments)") + "\n  \(summary)"
        if !aliases.isEmpty { text += "\n  aliases: " + aliases.map { ":" + $0 }.joined(separator: ", ") }
        if !details.isEmpty { text += "\n" + details.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }
        return text
    }
}

extension ShellCommand {
    static let all: [ShellCommand] = [
        ShellCommand(
            name: "help", arguments: "[NAME]",
            summary: "this overview, an operator's signature, summary, Combine equivalent and example, or a diagnostic's code",
            completion: .helpTopics
        ) { context, argument, location in
            if let problem = ShellHelp.problem(with: argument) { return context.commandError(problem, at: location) }
            context.say(ShellHelp.help(argument, style: context.style))
            return .ok
        },
        ShellCommand(name: "ops", arguments: "", summary: "list every source, operator and terminal", completion: .nothing) { context, _, _ in
            context.say(ShellHelp.operatorList(style: context.style))
            return .ok
        },
        ShellCommand(
            name: "type", arguments: "PIPELINE", summary: "the pipeline's Combine type and each stage's failure type",
            completion: .pipeline
        ) { context, argument, location in
            guard !argument.isEmpty else { return context.usage(":type PIPELINE", at: location) }
            switch context.session.types(of: argument) {
            case .success(let types): context.say(SessionText.typeTable(types))
            case .failure(let diagnostic): return context.reportArgument([diagnostic], of: "type", argument: argument, at: location)
            }
            return .ok
        },
        ShellCommand(
            name: "swift", arguments: "PIPELINE",
            summary: "the pipeline as a Swift statement to paste: import Reactive, the chain, a printing sink (past values: a task with for await)",
            completion: .pipeline
        ) { context, argument, location in
            guard !argument.isEmpty else { return context.usage(":swift PIPELINE", at: location) }
            switch context.session.swiftTranslation(of: argument, form: .statement) {
            case .success(let swift):
                context.say(SessionText.swiftFile(swift))
                // Said after the code too, where it is read last (a channel's reader, mixed kinds …).
                if let problem = swift.problems.first { context.say(context.style.dim("note: no faithful Swift form: \(problem)")) }
            case .failure(let diagnostic): return context.reportArgument([diagnostic], of: "swift", argument: argument, at: location)
            }
            return .ok
        },
        ShellCommand(
            name: "compare", arguments: "PIPELINE",
            summary: "run the pipeline pushed (Combine) and pulled (AsyncSequence) on one virtual timeline and show where they differ",
            details: """
                Without a crossing, the pull run puts values after the source, so every later stage is
                its async twin; a stage without one is error E410 at its position. A pipeline that
                crosses (values, stream) compares the bridges: stream (a sink asks for everything) in
                the push run, values (one element per next()) in the pull run. Both run on a fresh
                virtual clock, after the session's lets made again (a subject starts empty); lines
                that differ are marked ≠, and each twin's documented difference says why.
                plumb compare FILE does it for a script.
                example: :compare interval 100ms | take 3 | debounce 150ms
                """,
            completion: .pipeline
        ) { context, argument, location in
            guard !argument.isEmpty else { return context.usage(":compare PIPELINE", at: location) }
            let (session, preamble) = PipelineComparison.session(replaying: context.session.bindingSummaries())
            switch session.comparisonPlan(of: argument) {
            case .success(let plan):
                let comparison = PipelineComparison(plan, preamble: preamble)
                context.say(comparison.lines(style: context.style, width: TerminalSize.columns, marbles: context.options.marbles).joined(separator: "\n"))
            case .failure(let diagnostic): return context.reportArgument([diagnostic], of: "compare", argument: argument, at: location)
            }
            return .ok
        },
        ShellCommand(name: "bindings", arguments: "", summary: "list the names bound with let", completion: .nothing) { context, _, _ in
            context.say(
                SessionText.bindingList(context.session.bindingSummaries(), style: context.style, described: context.valueBindings))
            return .ok
        },
        ShellCommand(name: "jobs", arguments: "", summary: "list the background jobs", completion: .nothing) { context, _, _ in
            context.reapJobs()
            if context.jobs.isEmpty {
                context.say(context.style.dim("no background jobs"))
            } else {
                context.say(context.jobs.listing(now: context.session.runtime.now()).joined(separator: "\n"))
            }
            return .ok
        },
        ShellCommand(
            name: "cancel", arguments: "N|all", summary: "cancel background job N, or all of them", completion: .jobs(or: ["all"])
        ) { context, argument, location in
            context.reapJobs()
            if argument == "all" {
                context.cancelAllJobs()
            } else if let id = jobNumber(argument) {
                guard let job = context.jobs.job(id) else {
                    let hint = context.jobs.isEmpty ? " (no jobs are running)" : "; :jobs lists them"
                    return context.commandError(.noSuchJob("no job \(id)" + hint), at: location)
                }
                context.cancelJob(job)
            } else {
                return context.usage(":cancel N|all", at: location)
            }
            return .ok
        },
        ShellCommand(
            name: "trace", arguments: "on|off", summary: "show each stage's subscribe, request, values, completion and cancel",
            completion: .words(["on", "off"])
        ) { context, argument, location in
            switch argument {
            case "on": context.options.trace = true
            case "off": context.options.trace = false
            case "": break
            default: return context.usage(":trace on|off", at: location)
            }
            context.say(context.style.dim("trace is \(context.options.trace ? "on" : "off")"))
            return .ok
        },
        ShellCommand(
            name: "marbles", arguments: "[on|off|N]",
            summary: "marble diagrams after each run (on by default), or the last run's, or job N's",
            completion: .jobs(or: ["on", "off"])
        ) { context, argument, location in
            DiagramCommands.marbles(argument, at: location, in: context)
        },
        ShellCommand(
            name: "export", arguments: "FILE.svg", summary: "write the last run's marble diagram as an SVG picture",
            completion: .files
        ) { context, argument, location in
            DiagramCommands.export(argument, at: location, in: context)
        },
        ShellCommand(
            name: "clock", arguments: "real|virtual", summary: "switch clocks (starts a fresh session: bindings are cleared)",
            completion: .words(["real", "virtual"])
        ) { context, argument, location in
            let mode: ClockMode
            switch argument {
            case "real": mode = .real
            case "virtual": mode = .virtual
            case "":
                context.say(context.style.dim("clock is \(context.options.clock == .virtual ? "virtual" : "real")"))
                return .ok
            default: return context.usage(":clock real|virtual", at: location)
            }
            if mode == context.options.clock {
                context.say(context.style.dim("clock is already \(argument)"))
            } else {
                let hadBindings = !context.session.bindingNames.isEmpty
                context.replaceSession(clock: mode)
                context.say(context.style.dim("clock is \(argument)" + (hadBindings ? " (bindings cleared)" : "")))
            }
            return .ok
        },
        ShellCommand(
            name: "step", arguments: "PIPELINE",
            summary: "start the pipeline paused at 0 on the virtual clock; Enter or :next steps to its next event",
            details: """
                Each step prints what every stage did at that instant and the diagram with ▲ under it;
                the prompt shows where the run is paused (plumb [paused 150 ms]>).
                  :next (Enter)    the next scheduled instant      :advance D    D further
                  :continue        to the end or the next break    :stop         cancel (Ctrl-C too)
                  :break STAGE [value|finished|failed]   pause when that stage does that
                While paused, s.send 3 feeds the run; :marbles, :type and expect answer; a foreground
                pipeline is refused (it would move the paused clock). Needs the virtual clock.
                example: :step marble "-a-b-c|" | debounce 150ms
                """,
            completion: .pipeline
        ) { context, argument, location in
            context.stepper.step(argument, at: location, in: context)
        },
        ShellCommand(
            name: "next", aliases: ["n"], arguments: "",
            summary: "paused run: run the next scheduled instant, print what each stage did, redraw the diagram",
            completion: .nothing
        ) { context, _, location in
            context.stepper.next(at: location, in: context)
        },
        ShellCommand(
            name: "advance", arguments: "D", summary: "paused run: move the virtual clock by D (150ms, 2s), running what falls due",
            completion: .words(["10ms", "50ms", "100ms", "1s"])
        ) { context, argument, location in
            context.stepper.advance(argument, at: location, in: context)
        },
        ShellCommand(
            name: "continue", aliases: ["c"], arguments: "", summary: "paused run: run to its end, or to the next break",
            completion: .nothing
        ) { context, _, location in
            context.stepper.continueRun(at: location, in: context)
        },
        ShellCommand(
            name: "break", arguments: "[STAGE [value|finished|failed]|clear]",
            summary: "paused run: pause when stage STAGE (its number or text) emits that; alone, list the breaks",
            completion: .words(["value", "finished", "failed", "clear"])
        ) { context, argument, location in
            context.stepper.breakAt(argument, at: location, in: context)
        },
        ShellCommand(name: "stop", arguments: "", summary: "cancel the paused run (Ctrl-C at its prompt does too)", completion: .nothing) {
            context, _, location in
            context.stepper.stop(at: location, in: context)
        },
        ShellCommand(
            name: "save", arguments: "FILE.pipe",
            summary: "write the session as a script: bindings, sends, and each pipeline with expect lines from its run (plumb test passes on it)",
            details: """
                After each foreground pipeline: expect values (or count), expect failed, and on the virtual
                clock expect marbles, each checked against the run first; a real-clock run gets a comment
                instead of expect marbles. A stepped run is saved as its :step, sends and moves.
                """,
            completion: .files
        ) { context, argument, location in
            guard !argument.isEmpty else { return context.usage(":save FILE.pipe", at: location) }
            if let problem = StatementRunner.writeFile(context.sessionScript, to: argument) {
                return context.commandError(.cannotWriteFile(problem), at: location)
            }
            let paused = context.stepper.stepping.map { "; the run paused at \($0.elapsedText) is saved up to there" } ?? ""
            context.say(context.style.dim("wrote \(argument): plumb test \(argument) checks it" + paused))
            return .ok
        },
        ShellCommand(
            name: "edit", arguments: "[N]",
            summary: "open the last statement (or job N's) in $VISUAL or $EDITOR; run it when the editor exits with it changed",
            details: "Lines the editor leaves are joined into one statement (# lines dropped); it goes into the history.",
            completion: .jobs(or: [])
        ) { context, argument, location in
            context.editor.edit(argument, at: location, in: context)
        },
        ShellCommand(
            name: "watch", arguments: "FILE.pipe",
            summary: "run a script on the virtual clock on every save: each pipeline's diagram and what changed since the last save, until Ctrl-C",
            details: "Each save runs in a fresh session; the changes read as expect marbles's diff (expected: the last save).",
            completion: .files
        ) { context, argument, location in
            ScriptWatch.watch(argument, at: location, in: context)
        },
        ShellCommand(name: "load", arguments: "FILE", summary: "run a .pipe script in this session", completion: .files) { context, argument, location in
            guard !argument.isEmpty else { return context.usage(":load FILE", at: location) }
            return context.loader.load(argument, at: location, in: context)
        },
        ShellCommand(name: "reset", arguments: "", summary: "cancel every job and forget every binding", completion: .nothing) { context, _, _ in
            context.replaceSession(clock: context.options.clock)
            context.say(context.style.dim("session reset"))
            return .ok
        },
        ShellCommand(
            name: "clear", arguments: "", summary: "clear the screen (on a terminal; elsewhere it prints nothing)", completion: .nothing
        ) { context, _, _ in
            if !context.output.quiet { Screen.clear(context.output.out) }
            return .ok
        },
        ShellCommand(
            name: "quit", aliases: ["exit", "q"], arguments: "", summary: "leave plumb (Ctrl-D does too)", completion: .nothing
        ) { _, _, _ in
            .quit
        },
    ]

    /// `N` or `%N`.
    static func jobNumber(_ argument: String) -> Int? {
        Int(argument.hasPrefix("%") ? String(argument.dropFirst()) : argument)
    }
}
