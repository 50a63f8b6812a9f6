import PipeLanguage

extension CommandLineOption {
    /// Every option `plumb` takes, in the order the completions list them. A new option is a row
    /// here and a field of the subcommand that reads it.
    static let all: [CommandLineOption] = [
        CommandLineOption(
            "--clock", .choice(["real", "virtual"]), placeholder: "real|virtual",
            summary: "the clock for time-based sources and operators",
            overview: [
                "the clock for time-based sources and operators (default: real;",
                "`plumb test` defaults to virtual: instant and repeatable)",
            ]),
        CommandLineOption(
            "--format", .choice(["text", "jsonl"]), placeholder: "text|jsonl",
            summary: "event output: aligned text, or one JSON object per line",
            overview: ["event output: aligned text, or one JSON object per line"]),
        CommandLineOption(
            "--no-color", aliases: ["--no-colour"], summary: "no colours (also when NO_COLOR is set, or stdout is not a terminal)",
            overview: ["no colours (also when NO_COLOR is set, or stdout is not a terminal)"]),
        CommandLineOption("--trace", summary: "start with :trace on", overview: ["start with :trace on"]),
        CommandLineOption(
            "--until", .text, placeholder: "D", summary: "virtual clock: stop a run that only an endless timer keeps going after this long",
            overview: [
                "virtual clock: stop a run that only an endless timer (interval)",
                "keeps going after D of virtual time (default 1h)",
            ],
            read: { text, _ throws(UsageError) in
                guard DurationLiteral.nanoseconds(text) != nil else {
                    throw UsageError(message: "--until needs a duration such as 2h or 90s, got '\(text)'")
                }
                return [text]
            }),
        CommandLineOption(
            "--marbles", summary: "a marble diagram after each foreground pipeline (the REPL's default)",
            overview: ["a marble diagram after each foreground pipeline (the REPL's default)"]),
        CommandLineOption(
            "--svg", .file(suffix: ".svg"), placeholder: "OUT.svg", of: ["run", "compare"],
            summary: "(run, compare) the foreground pipelines' diagrams as one SVG picture",
            overview: ["(run, compare) the foreground pipelines' diagrams as one SVG picture"]),
        CommandLineOption("--once", of: ["learn"], summary: "(learn) check the exercises once"),
        CommandLineOption(
            "--reset", .file(suffix: ".pipe"), placeholder: "FILE", of: ["learn"], summary: "(learn) restore an exercise to its first version"),
        CommandLineOption(
            "--check", of: ["fmt"], summary: "(fmt) change nothing: list the scripts that are not formatted, exit 1 if any"),
        CommandLineOption("--program", of: ["swift"], summary: "(swift) one main.swift that compiles and runs"),
        CommandLineOption(
            "--report", .choice(["junit", "tap"], fileAfter: ["junit": ".xml"]), placeholder: "junit FILE.xml | tap", of: ["test"],
            summary: "(test) the results for CI: JUnit XML in FILE.xml, or TAP",
            overview: [
                "(test) the results for CI: JUnit XML in FILE.xml, or TAP",
                "on standard output",
            ],
            read: { kind, rest throws(UsageError) in
                switch kind {
                case "junit":
                    guard let path = rest.popFirst() else { throw UsageError(message: "--report needs a value") }
                    guard path.hasSuffix(".xml") else {
                        throw UsageError(message: "--report junit needs a file name ending in .xml, not '\(path)'")
                    }
                    return [kind, path]
                case "tap": return [kind]
                default: throw UsageError(message: "--report needs junit FILE.xml or tap, not '\(kind)'")
                }
            }),
        CommandLineOption("--help", aliases: ["-h"], summary: "show help", overview: ["show help"]),
        CommandLineOption("--version", summary: "show the version", overview: ["show the version"]),
        CommandLineOption("--markdown", of: ["help"], summary: "(help) write the operator reference"),
        CommandLineOption("--man", of: ["help"], summary: "(help) this help as a manual page"),
        CommandLineOption(
            "--host", .text, placeholder: "H", of: ["serve"], summary: "(serve) the address to listen on",
            commandHelp: [
                "the IPv4 or IPv6 address to listen on (default 127.0.0.1; 0.0.0.0 or :: for",
                "the room's network, ::1 for IPv6 loopback)",
            ]),
        CommandLineOption(
            "--port", .text, placeholder: "N", of: ["serve"], summary: "(serve) the port to listen on",
            commandHelp: ["the port (default 8080; 0 lets the system choose)"],
            read: { text, _ throws(UsageError) in
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(message: "--port needs a number from 0 to 65535, not '\(text)'")
                }
                return [text]
            }),
        CommandLineOption(
            "--state", .directory, placeholder: "DIR", of: ["serve"], summary: "(serve) where progress and the room's secrets are kept",
            commandHelp: ["where progress and the room's secrets are kept (default DIR/.plumb-room)"]),
        CommandLineOption(
            "--qr", of: ["serve"], summary: "(serve) draw the learners' URL as a QR code",
            commandHelp: [
                "draw the learners' address as a QR code even when standard output is not",
                "a terminal",
            ]),
        CommandLineOption(
            "--no-qr", of: ["serve"], summary: "(serve) no QR code, even on a terminal", commandHelp: ["no QR code, even on a terminal"]),
    ]

    /// The row named `name` (or one of its aliases).
    static func named(_ name: String) -> CommandLineOption? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }
}
