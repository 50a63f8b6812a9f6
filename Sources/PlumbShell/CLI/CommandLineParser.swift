import PipeLanguage

/// A usage error: the message, printed with a pointer to `--help`, exits 2.
struct UsageError: Error, Equatable {
    var message: String
}

/// The command line after its options were read: the operands, and each option's values.
struct ParsedArguments: Equatable {
    /// The words that are not options, the subcommand's name first until `CommandLineParser`
    /// hands them to the subcommand.
    var operands: [String] = []
    /// Each option given, by its name, with what its reader returned (a flag: nothing). A
    /// repeated option: the last one's.
    var values: [String: [String]] = [:]
    /// The options' names in the order given, repeats included.
    var given: [String] = []

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The option's (first) value.
    func value(_ name: String) -> String? { values[name]?.first }

    /// Which of `names` was given last (`--qr` or `--no-qr`).
    func last(of names: [String]) -> String? { given.last(where: names.contains) }
}

/// Reads `plumb`'s arguments with `CommandLineOption.all` and makes the subcommand they ask for.
/// Options may come before or after the subcommand; `--` ends them.
///
/// ```swift
/// try CommandLineParser.parse(["--clock", "virtual", "run", "a.pipe"])   // RunSubcommand
/// ```
enum CommandLineParser {
    /// - Throws: `UsageError` with the message `plumb` prints (and exits 2 on).
    static func parse(_ arguments: [String]) throws(UsageError) -> any PlumbCommand {
        var parsed = try readOptions(arguments)
        if parsed.has("--version") {
            if let extra = parsed.operands.first { throw UsageError(message: "--version takes no operands, not '\(extra)'") }
            if parsed.has("--help") { throw UsageError(message: "--version and --help cannot be used together") }
            return VersionCommand()
        }
        let first = parsed.operands.first
        if parsed.has("--help") {
            return HelpSubcommand(topic: first.flatMap { PlumbCommands.named($0) == nil ? nil : $0 })
        }
        // No subcommand: the REPL (or statements from standard input).
        let name = first ?? ReplSubcommand.configuration.name
        for optionName in parsed.given {
            guard let option = CommandLineOption.named(optionName), !option.belongs(to: name), let owner = option.commands.first else { continue }
            throw UsageError(message: PlumbCommands.named(owner)?.misplaced(option) ?? "\(option.name) is an option of \(owner)")
        }
        guard let command = PlumbCommands.named(name) else { throw unknownCommand(name) }
        parsed.operands = Array(parsed.operands.dropFirst())
        return try command.init(parsed)
    }

    /// Sorts the arguments into options (checked by their readers, in order) and operands.
    static func readOptions(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.operands.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = CommandLineOption.named(name) else { throw unknownOption(name) }
            var values: [String] = []
            if let read = option.read {
                guard let value = inlineValue ?? rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                values = try read(value, &rest)
            }
            parsed.values[option.name] = values
            parsed.given.append(option.name)
        }
        return parsed
    }

    private static func unknownOption(_ name: String) -> UsageError {
        var message = "unknown option '\(name)'"
        if let suggestion = Suggestions.closest(to: name, among: CommandLineOption.all.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message: message)
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if name.hasSuffix(".pipe") {
            message += "; to run a script: plumb run \(name)"
        } else if let suggestion = Suggestions.closest(to: name, among: PlumbCommands.names) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message: message)
    }
}
