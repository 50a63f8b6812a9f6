import PipeLanguage

/// `plumb help [COMMAND | diagnostics | ID | OPERATOR]`, `plumb help --markdown [DIR]`, `plumb help --man`.
struct HelpSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "help", summary: "describe plumb, one of its commands or a diagnostic",
        usage: [
            Usage(
                synopsis: "plumb help [COMMAND | OPERATOR]",
                description: ["this text, one command's, or a source's, operator's", "or terminal's (flatMap), as :help shows it"]),
            Usage(
                synopsis: "plumb help diagnostics | ID",
                description: ["every diagnostic's code and name, or one explained (E331,", "kinds-do-not-join)"]),
            Usage(
                synopsis: "plumb help --markdown [DIR]",
                description: [
                    "write the operator reference (DIR/Operators.md, default Docs)", "with each example's diagram (DIR/diagrams/NAME.svg)",
                ]),
            Usage(synopsis: "plumb help --man", description: ["this text as a manual page (roff), as installed"], shown: .overview),
        ],
        discussion: """
            Describes plumb, or one of its commands: run, check, test, repl, lsp, serve. `diagnostics` lists
            every error and warning plumb can report, by code and name (`E101  unterminated-string
            (lexer)`); a code or a name (`E331`, `kinds-do-not-join`) explains that one: what it
            means, an example that reports it, the example fixed, and the Combine fact behind it.
            A source's, operator's or terminal's name (`flatMap`) shows its help, as :help does.
            --markdown writes the reference instead: DIR/Operators.md (default Docs) with a section
            per source, operator and terminal (signature, summary, Combine equivalent, example, the
            example's events and marble diagram, run on the virtual clock), the diagram as a
            picture beside it (DIR/diagrams/NAME.svg), and the diagnostics by code.
            """,
        operands: .helpTopics)

    /// Where `plumb help --markdown` writes when no folder is given.
    static let defaultReference = "Docs"

    enum Mode: Equatable {
        /// `plumb --help` (nil), `plumb help COMMAND`, `plumb help diagnostics`, `plumb help E101`.
        case text(topic: String?)
        /// `--markdown [DIR]`: the operator reference and its diagrams, written into DIR.
        case reference(directory: String)
        /// `--man`: the manual page (roff), made from `plumb --help`'s text.
        case manPage
    }

    var mode: Mode

    init(topic: String?) {
        mode = .text(topic: topic)
    }

    init(mode: Mode) {
        self.mode = mode
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let operands = arguments.operands
        if arguments.has("--man") {
            guard operands.isEmpty, !arguments.has("--markdown") else { throw UsageError(message: "help --man takes nothing else") }
            mode = .manPage
        } else if arguments.has("--markdown") {
            guard operands.count <= 1 else { throw UsageError(message: "help --markdown takes at most one folder") }
            mode = .reference(directory: operands.first ?? Self.defaultReference)
        } else {
            guard operands.count <= 1 else { throw UsageError(message: "help takes at most one COMMAND") }
            if let topic = operands.first { try Self.checkTopic(topic) }
            mode = .text(topic: operands.first)
        }
    }

    /// Throws the error for a topic `plumb help` cannot describe, with what it may have meant.
    private static func checkTopic(_ topic: String) throws(UsageError) {
        guard PlumbCommands.named(topic) == nil, !HelpText.isTopic(topic) else { return }
        let looksLikeCode = topic.count > 1 && topic.first.map("EeWw".contains) == true && topic.dropFirst().allSatisfy(\.isNumber)
        if looksLikeCode { throw UsageError(message: "no diagnostic '\(topic)' (plumb help diagnostics lists them)") }
        var message = "no help for '\(TerminalText.escaped(topic))'"
        if let suggestion = Suggestions.closest(to: topic, among: HelpText.topics(commands: PlumbCommands.names)) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (plumb help lists the commands, plumb help diagnostics the diagnostics, :ops in the REPL the operators)"
        }
        throw UsageError(message: message)
    }

    func run() -> Int32 {
        switch mode {
        case .text(let topic):
            StandardStreams.write((topic.map(HelpText.command) ?? HelpText.overview) + "\n")
        case .manPage:
            StandardStreams.write(ManPage.roff(version: PlumbMain.version))
        case .reference(let directory):
            if let problem = OperatorReference.write(to: directory) {
                writeStandardError(.cannotWriteFile(problem))
                return ExitCode.usage
            }
            return ExitCode.success
        }
        return StandardStreams.exitCode(after: ExitCode.success)
    }
}
