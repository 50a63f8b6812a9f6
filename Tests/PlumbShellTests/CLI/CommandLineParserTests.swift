import Testing

@testable import PlumbShell

/// `plumb ARGUMENTS` read as the subcommand `C`, or nil when they make another one.
func parsed<C: PlumbCommand>(_ arguments: [String], as type: C.Type = C.self) throws(UsageError) -> C? {
    try CommandLineParser.parse(arguments) as? C
}

/// What every subcommand shares: options before or after the subcommand, `--`, `--version`,
/// `--help`, and the usage errors for what no subcommand takes.
@Suite struct CommandLineParserTests {
    @Test("no arguments means the REPL (or stdin mode)")
    func interactive() throws {
        #expect(try parsed([]) == ReplSubcommand())
        #expect(try parsed(["repl"]) == ReplSubcommand())
    }

    @Test("options may come before or after the subcommand, --name=value too; `--` ends them")
    func optionsAnywhere() throws {
        var global = GlobalOptions()
        global.clock = .virtual
        global.format = .jsonl
        #expect(
            try parsed(["--clock", "virtual", "run", "a.pipe", "--format=jsonl", "b.pipe"])
                == RunSubcommand(global: global, files: ["a.pipe", "b.pipe"]))
        #expect(try parsed(["run", "--", "--clock"]) == RunSubcommand(files: ["--clock"]))
        #expect(try parsed(["--no-colour"], as: ReplSubcommand.self)?.global.noColor == true)
        #expect(try parsed(["--until", "2h", "--trace", "--marbles"], as: ReplSubcommand.self)?.global.until == 7_200_000_000_000)
    }

    @Test("--help, -h and --version, anywhere")
    func helpAndVersion() throws {
        #expect(try parsed(["-h"]) == HelpSubcommand(topic: nil))
        #expect(try parsed(["run", "--help"]) == HelpSubcommand(topic: "run"))
        #expect(try parsed(["bogus", "--help"]) == HelpSubcommand(topic: nil))
        #expect(try parsed(["--version"]) == VersionCommand())
        #expect(try parsed(["--trace", "--version"]) == VersionCommand())
    }

    @Test(
        "usage errors name the problem and suggest a fix",
        arguments: [
            (["--clok", "virtual"], "unknown option '--clok'; did you mean '--clock'?"),
            (["--clock", "fast"], "--clock must be real or virtual, not 'fast'"),
            (["--format", "xml"], "--format must be text or jsonl, not 'xml'"),
            (["--clock"], "--clock needs a value"),
            (["--until", "forever"], "--until needs a duration such as 2h or 90s, got 'forever'"),
            (["-x"], "unknown option '-x'"),
            (["rnu", "x.pipe"], "unknown command 'rnu'; did you mean 'run'?"),
            (["talk.pipe"], "unknown command 'talk.pipe'; to run a script: plumb run talk.pipe"),
            (["--version", "extra"], "--version takes no operands, not 'extra'"),
            (["--version", "--help"], "--version and --help cannot be used together"),
            (["--svg", "x.svg"], "--svg is an option of run"),
            (["bogus", "--svg", "x.svg"], "--svg is an option of run"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("an option given to the wrong subcommand names the one it belongs to; the first such option wins")
    func misplaced() {
        #expect(throws: UsageError(message: "--once is an option of learn")) { try CommandLineParser.parse(["run", "--once", "--program", "x"]) }
        #expect(throws: UsageError(message: "--markdown is an option of help")) { try CommandLineParser.parse(["run", "--markdown", "x"]) }
    }
}

/// The option table and the subcommands' configurations agree with each other.
@Suite struct CommandLineTableTests {
    @Test("every option names existing subcommands, once, and every valued option has a placeholder")
    func optionsNameSubcommands() {
        let names = CommandLineOption.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
        for option in CommandLineOption.all {
            for command in option.commands { #expect(PlumbCommands.named(command) != nil, "\(option.name): \(command)") }
            #expect((option.value == .none) == option.placeholder.isEmpty, "\(option.name)")
        }
    }

    @Test("every subcommand and option is described in words, not by its name")
    func described() {
        for command in PlumbCommands.all {
            let summary = command.configuration.summary
            #expect(summary.contains(" ") && summary != command.configuration.name, "\(command.configuration.name)")
        }
        for option in CommandLineOption.all {
            #expect(option.summary.contains(" ") && !option.summary.contains(option.name), "\(option.name)")
        }
    }

    @Test("every subcommand has its own help, starting with its usage")
    func ownHelp() {
        for command in PlumbCommands.all {
            let help = HelpText.command(command.configuration.name)
            #expect(help != HelpText.overview, "\(command.configuration.name)")
            #expect(help.hasPrefix("plumb "), "\(command.configuration.name)")
        }
    }

    @Test("plumb --help lists every subcommand's usage and the options that are not one subcommand's")
    func overview() {
        for command in PlumbCommands.all {
            for usage in command.configuration.usage where usage.shown != .commandHelp {
                #expect(HelpText.overview.contains("  \(usage.synopsis)"), "\(usage.synopsis)")
            }
        }
        for option in CommandLineOption.all where option.commands.isEmpty {
            #expect(HelpText.overview.contains("  \(option.term)"), "\(option.name)")
        }
    }
}
