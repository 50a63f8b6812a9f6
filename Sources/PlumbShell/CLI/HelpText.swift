import PipeLanguage

/// The texts of `plumb --help`, `plumb help COMMAND` and `plumb help diagnostics` (also `:help
/// diagnostics` in the REPL). The usage lines and options come from the subcommands'
/// configurations (`PlumbCommands.all`) and the option table (`CommandLineOption.all`).
enum HelpText {
    /// `plumb --help`: every subcommand's usage (the REPL's first), the options every subcommand
    /// takes and those `plumb --help` lists for one, then examples, environment and exit codes.
    static let overview: String = {
        let isRepl = { (command: any PlumbSubcommand.Type) in command.configuration.name == ReplSubcommand.configuration.name }
        let commands = PlumbCommands.all.filter(isRepl) + PlumbCommands.all.filter { !isRepl($0) }
        let usage = commands.flatMap { $0.configuration.usage.filter { $0.shown != .commandHelp } }
        let options = CommandLineOption.all.filter { !$0.overview.isEmpty }
        return """
            plumb: an interactive shell for reactive pipelines

            USAGE
            \(entries(usage.map { ($0.synopsis, $0.description) }, width: 35))

            OPTIONS
            \(entries(options.map { ($0.term, $0.overview) }, width: 35))

            \(closing)
            """
    }()

    /// `plumb help NAME`: a subcommand's usage lines, its discussion, its options and epilogue;
    /// every diagnostic for `diagnostics`; a diagnostic's explanation for its code or name; a
    /// catalog entry's help (as `:help NAME` prints it) for its name or alias; else the overview.
    static func command(_ name: String) -> String {
        if let command = PlumbCommands.named(name) { return help(command.configuration) }
        if name == "diagnostics" { return diagnostics }
        if let id = DiagnosticID.anyNamed(name) { return diagnostic(id) }
        if let entry = Catalog.entry(named: name) { return EntryHelp.text(entry, style: .plain) }
        if let combine = CombineNames.entry(named: name) { return combineOnly(combine, style: .plain) }
        return overview
    }

    /// A Combine method that is not a stage in plumb (`help eraseToAnyPublisher`): what to do
    /// instead (`CombineNames`); `:help` and `plumb help` print the same.
    static func combineOnly(_ combine: CombineNames.Entry, style: Style) -> String {
        style.bold(combine.name) + ": Combine's, not a stage in plumb.\n  " + combine.instead + "."
    }

    static func help(_ configuration: CommandConfiguration) -> String {
        let synopsis = configuration.usage.filter { $0.shown != .overview }.map(\.synopsis)
        var parts = [synopsis.joined(separator: "\n"), configuration.discussion]
        let options = CommandLineOption.all.filter { $0.commands.contains(configuration.name) && !$0.commandHelp.isEmpty }
        if !options.isEmpty { parts.append("OPTIONS\n" + entries(options.map { ($0.term, $0.commandHelp) }, width: 15)) }
        if !configuration.epilogue.isEmpty { parts.append(configuration.epilogue) }
        return parts.joined(separator: "\n\n")
    }

    /// Rows of a help section: `  TERM` padded to `width`, then the description's first line; its
    /// other lines (and all of them after a term too long to share a line) indented to match.
    static func entries(_ rows: [(term: String, description: [String])], width: Int) -> String {
        let indent = String(repeating: " ", count: width + 2)
        return rows.flatMap { term, description -> [String] in
            let continued = description.dropFirst().map { indent + $0 }
            guard let first = description.first else { return ["  " + term] }
            if term.count + 2 > width { return ["  " + term, indent + first] + continued }
            return ["  " + term + String(repeating: " ", count: width - term.count) + first] + continued
        }.joined(separator: "\n")
    }

    /// `plumb --help`'s sections after the options.
    private static let closing = """
        EXAMPLES
          plumb
          plumb run Examples/tour.pipe
          echo 'from 1...3 | map { $0 * 2 }' | plumb
          plumb --clock virtual --format jsonl run Examples/async.pipe
          plumb test Examples/expect.pipe Examples/workshop/solutions
          plumb learn

        ENVIRONMENT
          PLUMB_HISTORY                      the REPL's history file (default $HOME/.plumb_history)
          NO_COLOR                           set to anything non-empty to turn colours off

        EXIT CODES
          0    success
          1    a pipeline failed, or an `expect` did not hold
          2    usage error (bad arguments, unreadable file)
          65   a script has syntax or static errors
          130  interrupted: Ctrl-C (SIGINT) cancelled a script's running pipeline, which printed
               `cancelled`; the rest of the script did not run and plumb ended by SIGINT
          141  standard output's reader went away (`plumb run x | head -1`): the running
               pipeline was cancelled and plumb ended (another failed write to standard output,
               such as a full device, is status 1 with one line on standard error)

        In the REPL, :help lists the commands and :ops the operators (:help diagnostics, the
        diagnostics); Ctrl-C there cancels the running pipeline and keeps the session.
        """
}

extension HelpText {
    /// Every diagnostic, one a line: `E101  unterminated-string  (lexer)`.
    static var diagnostics: String {
        var lines = ["Diagnostics (E: error, W: warning); `plumb help ID` or `:help ID` describes one.", ""]
        lines += DiagnosticID.everyLayer.map(line)
        return lines.joined(separator: "\n")
    }

    /// `E101  unterminated-string  (lexer)`.
    static func line(_ id: DiagnosticID) -> String { "\(id.code)  \(id.name)  (\(id.layer))" }

    /// One diagnostic (`plumb help E331`, `:help E331`): its line, what it is and when it is
    /// reported, then its explanation: what it means, an example and its fix, the Combine fact.
    static func diagnostic(_ id: DiagnosticID) -> String {
        let what = "\(id.severity == .warning ? "a warning" : "an error"), \(when(id))"
        guard let explanation = id.anyExplanation else { return [line(id), "  " + what].joined(separator: "\n") }
        return explanation.text(heading: line(id), when: what)
    }

    /// When a diagnostic is reported: `found by the lexer, before anything of the text runs`.
    static func when(_ id: DiagnosticID) -> String {
        switch id.layer {
        case "lexer", "parser", "checker": "found by the \(id.layer), before anything of the text runs"
        case "session": "found when a statement is performed"
        case "build": "found when a pipeline is built, before it is subscribed"
        case "evaluation": "raised while a closure runs: the pipeline fails with it"
        case "room": "reported by `plumb serve` to a learner's page"
        default: "reported by the \(id.layer)"
        }
    }

    /// Whether `topic` is something `plumb help` can describe besides a command: `diagnostics`, a
    /// diagnostic's code or name, a catalog entry's name or alias.
    static func isTopic(_ topic: String) -> Bool {
        topic == "diagnostics" || DiagnosticID.anyNamed(topic) != nil || Catalog.entry(named: topic) != nil
            || CombineNames.entry(named: topic) != nil
    }

    /// What an unknown help topic may have meant: `commands`, `diagnostics`, the catalog's
    /// entries and aliases, and the diagnostics' codes and names.
    static func topics(commands: [String]) -> [String] {
        commands + ["diagnostics"] + Catalog.entries.flatMap { [$0.name] + $0.aliases } + DiagnosticID.everyLayer.flatMap { [$0.code, $0.name] }
    }
}
