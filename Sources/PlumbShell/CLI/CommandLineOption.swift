import PipeLanguage

/// One option of `plumb`'s command line: a row of `CommandLineOption.all`, the table the parser,
/// `plumb --help`, `plumb help COMMAND`, the manual page and the completion scripts all read.
///
/// ```swift
/// CommandLineOption(
///     "--svg", .file(suffix: ".svg"), placeholder: "OUT.svg", of: ["run"],
///     summary: "(run) the foreground pipelines' diagrams as one SVG picture")
/// ```
struct CommandLineOption: Sendable {
    /// What follows the option's name, as the completions offer it.
    enum Value: Sendable, Equatable {
        /// Nothing: a flag.
        case none
        /// One of these words; `fileAfter` names the words followed by a file with that suffix
        /// (`--report junit FILE.xml`).
        case choice([String], fileAfter: [String: String] = [:])
        /// A file name ending in `suffix`.
        case file(suffix: String)
        /// A folder.
        case directory
        /// Free text (an address, a number, a duration).
        case text
    }

    /// Reads an option's value (`value`, already taken from `--name=value` or the next argument)
    /// and whatever else it needs from `rest`; returns what the command will read, or throws the
    /// usage error.
    typealias Reader = @Sendable (_ value: String, _ rest: inout ArraySlice<String>) throws(UsageError) -> [String]

    /// `--clock`: what is typed, and what `plumb --help` shows.
    let name: String
    /// Other spellings (`-h`, `--no-colour`).
    let aliases: [String]
    let value: Value
    /// What follows the name in help texts (`real|virtual`, `OUT.svg`); empty for a flag.
    let placeholder: String
    /// The subcommands that take it; empty: every one.
    let commands: [String]
    /// What it does, in words, for the zsh and fish completions.
    let summary: String
    /// Its description in `plumb --help`'s OPTIONS, one string a line; empty: not listed there.
    let overview: [String]
    /// Its description in its subcommand's `plumb help COMMAND`; empty: not listed there.
    let commandHelp: [String]
    /// Checks and converts the value; nil for a flag.
    let read: Reader?

    init(
        _ name: String, _ value: Value = .none, aliases: [String] = [], placeholder: String = "", of commands: [String] = [],
        summary: String, overview: [String] = [], commandHelp: [String] = [], read: Reader? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.value = value
        self.placeholder = placeholder
        self.commands = commands
        self.summary = summary
        self.overview = overview
        self.commandHelp = commandHelp
        self.read = value == .none ? nil : read ?? Self.reader(for: name, value)
    }

    /// Whether `command` (a subcommand's name) takes this option.
    func belongs(to command: String) -> Bool { commands.isEmpty || commands.contains(command) }

    /// The option as `plumb --help` names it: `-h, --help`, `--clock real|virtual`.
    var term: String {
        let names = aliases.filter { !$0.hasPrefix("--") } + [name]
        return names.joined(separator: ", ") + (placeholder.isEmpty ? "" : " \(placeholder)")
    }

    /// The reader a value kind implies: a choice checks its words, anything else is taken as is.
    private static func reader(for name: String, _ value: Value) -> Reader {
        guard case .choice(let words, _) = value else { return { value, _ in [value] } }
        return { value, _ throws(UsageError) in
            guard words.contains(value) else {
                throw UsageError(message: "\(name) must be \(words.joined(separator: " or ")), not '\(value)'")
            }
            return [value]
        }
    }
}
