import PipeLanguage

/// What the command line asks for.
struct Invocation: Equatable {
    enum Command: Equatable {
        /// No subcommand: the REPL on a terminal, statements from stdin otherwise.
        case interactive
        case run([String])
        case check([String])
        case test([String])
        case help(String?)
        case version
        /// `plumb learn [DIR]`: the workshop, interactive (`once` false) or checked once; or
        /// `--reset FILE`.
        case learn(directory: String, once: Bool)
        case learnReset(String)
        /// `plumb swift [--program] FILE`.
        case swift(String, program: Bool)
        /// `plumb lsp`: the language server over standard input and output.
        case lsp
        /// `plumb serve DIR`: a workshop room in the browser.
        case serve(directory: String, host: String, port: Int, state: String?, qr: Bool?)
        /// `plumb help --markdown [DIR]`: the operator reference and its diagrams, written into DIR.
        case reference(directory: String)
        /// `plumb help --man`: the manual page (roff), made from `plumb --help`'s text.
        case manPage
        /// `plumb completions bash|zsh|fish`: the shell's completion script.
        case completions(String)
    }

    var command: Command = .interactive
    var clock: ClockMode?
    var format: OutputFormat = .text
    var noColor = false
    var trace = false
    /// `--marbles`: a diagram after each foreground pipeline.
    var marbles = false
    /// `--svg OUT.svg` (for `run`): the diagrams of the script's foreground pipelines.
    var svg: String?
    /// `--program` (for `swift`): a whole main.swift.
    var program = false
    /// `--once` (for `learn`).
    var once = false
    /// `--reset FILE` (for `learn`).
    var reset: String?
    /// `--until D`: the virtual clock's horizon for runs an endless timer keeps going.
    var until: Int64?
    /// `--host`, `--port`, `--state` (for `serve`).
    var host: String?
    var port: Int?
    var state: String?
    /// `--qr` (true) or `--no-qr` (false) for `serve`; nil: a QR code when standard output is a terminal.
    var qr: Bool?
    /// `--markdown` (for `help`): write the reference instead of printing help.
    var markdown = false
    /// `--man` (for `help`): print the manual page.
    var man = false
    /// `--report junit FILE.xml` or `--report tap` (for `test`).
    var report: TestReport.Format?
}

/// A usage error: the message, printed with a pointer to `--help`, exits 2.
struct UsageError: Error, Equatable {
    var message: String
}

/// Parses `plumb`'s arguments. Options may come before or after the subcommand; `--` ends them.
enum ArgumentParser {
    static let subcommands = ["run", "check", "test", "learn", "swift", "lsp", "serve", "help", "repl", "completions"]
    static let options = [
        "--clock", "--format", "--no-color", "--trace", "--marbles", "--svg", "--once", "--reset", "--program", "--until", "--help", "--version",
        "--markdown", "--man", "--report", "--host", "--port", "--state", "--qr", "--no-qr",
    ]
    /// Where `plumb help --markdown` writes when no folder is given.
    static let defaultReference = "Docs"
    /// Where `plumb learn` looks when no folder is given.
    static let defaultWorkshop = "Examples/workshop"

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var positional: [String] = []
        var rest = arguments[...]
        var optionsEnded = false
        var wantsHelp = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--": optionsEnded = true
            case "--clock":
                switch try value() {
                case "real": invocation.clock = .real
                case "virtual": invocation.clock = .virtual
                case let other: throw UsageError(message: "--clock must be real or virtual, not '\(other)'")
                }
            case "--format":
                let text = try value()
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError(message: "--format must be text or jsonl, not '\(text)'")
                }
                invocation.format = format
            case "--no-color", "--no-colour": invocation.noColor = true
            case "--trace": invocation.trace = true
            case "--marbles": invocation.marbles = true
            case "--svg": invocation.svg = try value()
            case "--once": invocation.once = true
            case "--until":
                let text = try value()
                guard let ns = DurationLiteral.nanoseconds(text) else {
                    throw UsageError(message: "--until needs a duration such as 2h or 90s, got '\(text)'")
                }
                invocation.until = ns
            case "--program": invocation.program = true
            case "--markdown": invocation.markdown = true
            case "--man": invocation.man = true
            case "--report":
                switch try value() {
                case "junit":
                    let path = try value()
                    guard path.hasSuffix(".xml") else { throw UsageError(message: "--report junit needs a file name ending in .xml, not '\(path)'") }
                    invocation.report = .junit(path)
                case "tap": invocation.report = .tap
                case let other: throw UsageError(message: "--report needs junit FILE.xml or tap, not '\(other)'")
                }
            case "--reset": invocation.reset = try value()
            case "--host": invocation.host = try value()
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(message: "--port needs a number from 0 to 65535, not '\(text)'")
                }
                invocation.port = port
            case "--state": invocation.state = try value()
            case "--qr": invocation.qr = true
            case "--no-qr": invocation.qr = false
            case "-h", "--help": wantsHelp = true
            case "--version": invocation.command = .version
            default:
                var message = "unknown option '\(name)'"
                if let suggestion = Suggestions.closest(to: name, among: options) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message)
            }
        }
        if invocation.command == .version {
            if let extra = positional.first { throw UsageError(message: "--version takes no operands, not '\(extra)'") }
            if wantsHelp { throw UsageError(message: "--version and --help cannot be used together") }
            return invocation
        }
        guard let first = positional.first else {
            invocation.command = wantsHelp ? .help(nil) : .interactive
            return invocation
        }
        let operands = Array(positional.dropFirst())
        if wantsHelp {
            invocation.command = .help(subcommands.contains(first) ? first : nil)
            return invocation
        }
        if first != "run", invocation.svg != nil { throw UsageError(message: "--svg is an option of run") }
        if first != "swift", invocation.program { throw UsageError(message: "--program is an option of swift") }
        if first != "serve", invocation.host != nil || invocation.port != nil || invocation.state != nil || invocation.qr != nil {
            throw UsageError(message: "--host, --port, --state, --qr and --no-qr are options of serve")
        }
        if first != "test", invocation.report != nil { throw UsageError(message: "--report is an option of test") }
        if first != "help", invocation.markdown || invocation.man {
            throw UsageError(message: "\(invocation.markdown ? "--markdown" : "--man") is an option of help")
        }
        if first != "learn", invocation.once || invocation.reset != nil {
            throw UsageError(message: "\(invocation.once ? "--once" : "--reset") is an option of learn")
        }
        switch first {
        case "run":
            guard !operands.isEmpty else { throw UsageError(message: "run needs a FILE (or - for standard input)") }
            if let svg = invocation.svg, !svg.hasSuffix(".svg") { throw UsageError(message: "--svg needs a file name ending in .svg, not '\(svg)'") }
            invocation.command = .run(operands)
        case "check":
            guard !operands.isEmpty else { throw UsageError(message: "check needs a FILE") }
            invocation.command = .check(operands)
        case "test":
            guard !operands.isEmpty else { throw UsageError(message: "test needs a FILE or folder") }
            invocation.command = .test(operands)
        case "help" where invocation.man:
            guard operands.isEmpty, !invocation.markdown else { throw UsageError(message: "help --man takes nothing else") }
            invocation.command = .manPage
        case "completions":
            guard operands.count == 1, let shell = operands.first, Completions.shells.contains(shell) else {
                throw UsageError(message: "completions needs one shell: \(Completions.shells.joined(separator: ", "))")
            }
            invocation.command = .completions(shell)
        case "help" where invocation.markdown:
            guard operands.count <= 1 else { throw UsageError(message: "help --markdown takes at most one folder") }
            invocation.command = .reference(directory: operands.first ?? defaultReference)
        case "help":
            guard operands.count <= 1 else { throw UsageError(message: "help takes at most one COMMAND") }
            if let topic = operands.first, !subcommands.contains(topic), !HelpText.isTopic(topic) {
                let looksLikeCode = topic.count > 1 && "EeWw".contains(topic.first!) && topic.dropFirst().allSatisfy(\.isNumber)
                var message = looksLikeCode ? "no diagnostic '\(topic)' (plumb help diagnostics lists them)" : "no command '\(topic)'"
                if !looksLikeCode, let suggestion = Suggestions.closest(to: topic, among: HelpText.topics(commands: subcommands)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message)
            }
            invocation.command = .help(operands.first)
        case "repl":
            guard operands.isEmpty else { throw UsageError(message: "repl takes no operands") }
            invocation.command = .interactive
        case "lsp":
            guard operands.isEmpty else { throw UsageError(message: "lsp takes no operands") }
            invocation.command = .lsp
        case "serve":
            guard operands.count <= 1 else { throw UsageError(message: "serve takes at most one folder") }
            invocation.command = .serve(
                directory: operands.first ?? defaultWorkshop, host: invocation.host ?? "127.0.0.1", port: invocation.port ?? 8080,
                state: invocation.state, qr: invocation.qr)
        case "swift":
            guard operands.count == 1 else { throw UsageError(message: "swift takes one FILE") }
            invocation.command = .swift(operands[0], program: invocation.program)
        case "learn":
            if let reset = invocation.reset {
                guard operands.isEmpty, !invocation.once else { throw UsageError(message: "learn --reset takes one FILE and nothing else") }
                invocation.command = .learnReset(reset)
            } else {
                guard operands.count <= 1 else { throw UsageError(message: "learn takes at most one folder") }
                invocation.command = .learn(directory: operands.first ?? defaultWorkshop, once: invocation.once)
            }
        default:
            var message = "unknown command '\(first)'"
            if first.hasSuffix(".pipe") {
                message += "; to run a script: plumb run \(first)"
            } else if let suggestion = Suggestions.closest(to: first, among: subcommands) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw UsageError(message: message)
        }
        return invocation
    }
}
