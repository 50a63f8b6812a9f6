import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// What the command line asked for, ready to run: a subcommand, or `plumb --version`.
protocol PlumbCommand {
    /// Does it; returns the process's exit code.
    func run() -> Int32
}

/// One subcommand of `plumb` (`run`, `test`, `serve` …), in the style of swift-argument-parser's
/// `ParsableCommand`: its name, usage and help in `configuration`, its options as rows of
/// `CommandLineOption.all` that name it, and an initializer that reads them with the operands.
///
/// A new subcommand is a type here (in `CLI/Subcommands/`), a row in `PlumbCommands.all`, and its
/// options' rows; `plumb --help`, `plumb help NAME`, the manual page and the completions follow.
protocol PlumbSubcommand: PlumbCommand {
    static var configuration: CommandConfiguration { get }
    /// Reads the options and operands; throws the usage errors that are its own (a missing FILE).
    /// - Parameter arguments: the command line after its options were read, without the
    ///   subcommand's name.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// The error for one of its options given to another subcommand.
    static func misplaced(_ option: CommandLineOption) -> String
}

extension PlumbSubcommand {
    /// `--svg is an option of run`.
    static func misplaced(_ option: CommandLineOption) -> String {
        "\(option.name) is an option of \(configuration.name)"
    }

    /// The options that name this subcommand, in the table's order.
    static var ownOptions: [CommandLineOption] {
        CommandLineOption.all.filter { $0.commands.contains(configuration.name) }
    }
}

/// A subcommand's name, usage lines and help text.
struct CommandConfiguration: Sendable {
    /// What the completions offer after the subcommand's name.
    enum Operands: Sendable {
        case none
        /// `.pipe` files.
        case scripts
        /// Folders and `.pipe` files.
        case scriptsOrFolders
        /// Subcommands and help topics.
        case helpTopics
        /// The shells with completion scripts.
        case shells
    }

    let name: String
    /// What it does, in words, for the zsh and fish completions.
    let summary: String
    /// Its lines in `plumb --help`'s USAGE and at the top of `plumb help NAME`.
    let usage: [Usage]
    /// `plumb help NAME`'s text after the usage lines (and before its options).
    let discussion: String
    /// What follows its options in `plumb help NAME` (exit codes).
    var epilogue = ""
    var operands = Operands.none
}

/// One way to call a subcommand: `plumb learn --once [DIR]` and what it does.
struct Usage: Sendable {
    /// Where the line is shown.
    enum Shown: Sendable {
        case everywhere
        /// Only in `plumb --help`.
        case overview
        /// Only in `plumb help NAME`.
        case commandHelp
    }

    let synopsis: String
    /// Its description in `plumb --help`, one string a line.
    var description: [String] = []
    var shown = Shown.everywhere
}

/// Every subcommand, in the order the completions offer them.
enum PlumbCommands {
    // Computed: an array of metatypes is not `Sendable`, so it cannot be a stored static.
    static var all: [any PlumbSubcommand.Type] {
        [
            RunSubcommand.self, CheckSubcommand.self, TestSubcommand.self, FmtSubcommand.self, LearnSubcommand.self, SwiftSubcommand.self,
            CompareSubcommand.self, LspSubcommand.self, ServeSubcommand.self, HelpSubcommand.self, ReplSubcommand.self,
            CompletionsSubcommand.self,
        ]
    }

    static var names: [String] { all.map { $0.configuration.name } }

    static func named(_ name: String) -> (any PlumbSubcommand.Type)? {
        all.first { $0.configuration.name == name }
    }
}

/// The options every subcommand takes: how events are shown and which clock runs them.
struct GlobalOptions: Equatable {
    /// `--clock`; nil: the subcommand's default (real, virtual for `test`).
    var clock: ClockMode?
    var format = OutputFormat.text
    var noColor = false
    var trace = false
    /// `--marbles`: a diagram after each foreground pipeline.
    var marbles = false
    /// `--until D`: the virtual clock's horizon for runs an endless timer keeps going.
    var until: Int64?

    init() {}

    init(_ arguments: ParsedArguments) {
        clock = arguments.value("--clock").map { $0 == "virtual" ? .virtual : .real }
        format = arguments.value("--format").flatMap(OutputFormat.init(rawValue:)) ?? .text
        noColor = arguments.has("--no-color")
        trace = arguments.has("--trace")
        marbles = arguments.has("--marbles")
        until = arguments.value("--until").flatMap(DurationLiteral.nanoseconds)
    }

    /// The session's options: these, with colours only where the environment and the terminals allow.
    func shellOptions() -> ShellOptions {
        let environment = ProcessInfo.processInfo.environment
        let colorAllowed = !noColor && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        var options = ShellOptions()
        options.clock = clock ?? .real
        options.format = format
        options.color = colorAllowed && format == .text && isatty(STDOUT_FILENO) == 1
        options.colorErrors = colorAllowed && isatty(STDERR_FILENO) == 1
        options.trace = trace
        options.marbles = marbles
        options.until = until ?? Runtime.defaultHorizonNanoseconds
        return options
    }
}

/// `plumb --version`.
struct VersionCommand: PlumbCommand, Equatable {
    func run() -> Int32 {
        StandardStreams.write("plumb \(PlumbMain.version)\n")
        return StandardStreams.exitCode(after: ExitCode.success)
    }
}
