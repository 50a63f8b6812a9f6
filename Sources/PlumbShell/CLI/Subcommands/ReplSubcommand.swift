#if canImport(Glibc)
import Glibc
#endif

/// `plumb` or `plumb repl`: the interactive shell, or statements from standard input.
struct ReplSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "repl", summary: "the REPL (or statements from standard input when it is not a terminal)",
        usage: [
            Usage(
                synopsis: "plumb [OPTIONS]", description: ["the REPL (or statements from standard input when it is not a terminal)"],
                shown: .overview),
            Usage(synopsis: "plumb [repl]", shown: .commandHelp),
        ],
        discussion: """
            The interactive shell: type a pipeline and watch its events. Tab completes operators,
            sources, bindings, :commands and file names after :load; Up and Ctrl-R recall history
            (saved in $PLUMB_HISTORY, default $HOME/.plumb_history; one that cannot be written is
            reported at start and nothing is saved). Ctrl-C cancels the running pipeline
            (at once, even a synchronous source in the middle of its values; the session, bindings and
            history stay) or clears the line; Ctrl-D on an empty line quits. `&` runs a background job.
            When standard input is not a terminal, statements are read from it without a prompt,
            and Ctrl-C stops them as it stops `plumb run`. A `:load`ed script may not load itself
            (directly or through others) and nests at most 32 deep; its `:quit` ends the load only.
            """)

    var global = GlobalOptions()

    init(global: GlobalOptions = GlobalOptions()) {
        self.global = global
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.isEmpty else { throw UsageError(message: "repl takes no operands") }
        self.init(global: GlobalOptions(arguments))
    }

    func run() -> Int32 {
        var options = global.shellOptions()
        // The REPL only when both ends are a terminal: `plumb > log.txt` typed at a terminal
        // reads statements as from a pipe, so no prompt, echo or bracketed-paste codes land
        // in the file.
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return StandardStreams.exitCode(after: REPL(options: options).run())
        }
        options.color = false
        return StandardStreams.exitCode(after: ScriptRunner(options: options).runStandardInputStream())
    }
}
