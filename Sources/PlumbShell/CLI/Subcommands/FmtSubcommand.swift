import PipeLanguage

/// `plumb fmt [--check] FILE...`: rewrites scripts in the house style (`Docs/Formatting.md`).
struct FmtSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "fmt", summary: "format scripts in the house style",
        usage: [
            Usage(synopsis: "plumb fmt FILE|DIR...", description: ["format scripts in place (- reads standard input, writes standard output)"]),
            Usage(synopsis: "plumb fmt --check FILE|DIR...", description: ["list the scripts that are not formatted"]),
        ],
        discussion: """
            Rewrites each script in the house style (Docs/Formatting.md): one space around | and
            binary operators, closures as { $0 + 1 }, pipelines longer than 100 columns broken
            before each | with an indent of 4, comments kept where they were, at most one blank
            line. Only the space between tokens changes, so a formatted script means the same.
            Folders are searched for .pipe files. With - the script is read from standard input
            and the formatted text written to standard output. A script with errors is left
            alone: its first error is shown.

            EXIT CODES
              0    formatted (or, with --check, nothing to change)
              1    --check: some scripts are not formatted (their names are listed)
              2    usage error, or a file could not be read or written
              65   a script has syntax errors and was left alone
            """,
        operands: .scriptsOrFolders)

    var check = false
    var paths: [String] = []

    init(check: Bool, paths: [String]) {
        self.check = check
        self.paths = paths
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.operands.isEmpty else { throw UsageError(message: "fmt needs a FILE, a folder, or - for standard input") }
        if arguments.operands.contains("-"), arguments.operands.count > 1 {
            throw UsageError(message: "fmt reads standard input (-) alone, not with other files")
        }
        self.init(check: arguments.has("--check"), paths: arguments.operands)
    }

    func run() -> Int32 {
        if paths == ["-"] { return StandardStreams.exitCode(after: formatStandardInput()) }
        let (files, missing) = ScriptRunner.scripts(in: paths)
        var code = ExitCode.success
        for path in missing {
            writeStandardError(.unreadableFile("cannot read \(path): no such file or folder"))
            code = ExitCode.worst(code, ExitCode.usage)
        }
        for file in files {
            code = ExitCode.worst(code, format(file: file))
        }
        return StandardStreams.exitCode(after: code)
    }

    /// `plumb fmt -`: standard input to standard output (or, with `--check`, only the verdict).
    private func formatStandardInput() -> Int32 {
        switch ScriptFile.read("-") {
        case .failure(let failure):
            writeStandardError(.unreadableFile(failure.message))
            return ExitCode.usage
        case .success(let text):
            switch PipeFormatter.format(text, file: "<stdin>") {
            case .failure(let refusal):
                reportRefusal(refusal, text: text, file: "standard input")
                return ExitCode.dataError
            case .success(let formatted):
                if check {
                    if formatted == text { return ExitCode.success }
                    StandardStreams.write("<stdin>\n")
                    return ExitCode.failure
                }
                StandardStreams.write(formatted)
                return ExitCode.success
            }
        }
    }

    /// Formats one file in place (or checks it); its exit code.
    private func format(file: String) -> Int32 {
        let text: String
        switch ScriptFile.read(file) {
        case .failure(let failure):
            writeStandardError(.unreadableFile(failure.message))
            return ExitCode.usage
        case .success(let read): text = read
        }
        switch PipeFormatter.format(text, file: file) {
        case .failure(let refusal):
            reportRefusal(refusal, text: text, file: file)
            return ExitCode.dataError
        case .success(let formatted):
            guard formatted != text else { return ExitCode.success }
            if check {
                StandardStreams.write(file + "\n")
                return ExitCode.failure
            }
            if let problem = StatementRunner.writeFile(formatted, to: file) {
                writeStandardError(.cannotWriteFile(problem))
                return ExitCode.usage
            }
            return ExitCode.success
        }
    }

    private func reportRefusal(_ refusal: PipeFormatter.Refusal, text: String, file: String) {
        writeStandardError(refusal.diagnostic.rendered(source: text, color: false))
        writeStandardError("plumb: \(file) not formatted: it has errors; fix them first\n")
    }
}
