/// `plumb completions bash|zsh|fish`: a shell's completion script.
struct CompletionsSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "completions", summary: "the completion script for a shell",
        usage: [
            Usage(
                synopsis: "plumb completions bash|zsh|fish",
                description: ["the completion script for a shell (Scripts/install puts", "them where the shells look)"])
        ],
        discussion: """
            Prints the completion script for a shell: subcommands, options, the values of --clock
            and --format, .pipe files for run, check and swift, folders for test and learn, help
            topics. Scripts/install writes all three where the shells look for them; by hand:
              plumb completions bash > ~/.local/share/bash-completion/completions/plumb
              plumb completions zsh > ~/.zfunc/_plumb        (a folder on $fpath)
              plumb completions fish > ~/.config/fish/completions/plumb.fish
            """,
        operands: .shells)

    var shell: String

    init(shell: String) {
        self.shell = shell
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.count == 1, let shell = arguments.operands.first, Completions.shells.contains(shell) else {
            throw UsageError(message: "completions needs one shell: \(Completions.shells.joined(separator: ", "))")
        }
        self.init(shell: shell)
    }

    func run() -> Int32 {
        StandardStreams.write(Completions.script(for: shell))
        return StandardStreams.exitCode(after: ExitCode.success)
    }
}
