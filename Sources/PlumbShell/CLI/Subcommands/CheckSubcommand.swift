/// `plumb check FILE...`: parse and check scripts without running them.
struct CheckSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "check", summary: "parse and statically check scripts only",
        usage: [Usage(synopsis: "plumb check FILE...", description: ["parse and statically check scripts only"])],
        discussion: """
            Parses and statically checks each script without running anything: syntax, unknown names,
            argument counts and kinds, and warnings such as `retry has no effect: upstream never fails`.
            A `:load FILE` line is followed as running would follow it: the names the file binds
            are known after that line. Diagnostics go to standard error; each clean file prints
            `ok FILE`.

            EXIT CODES
              0    no errors (warnings allowed)
              2    usage error, or a file could not be read
              65   a script has syntax or static errors
            """,
        operands: .scripts)

    var global = GlobalOptions()
    var files: [String] = []

    init(global: GlobalOptions = GlobalOptions(), files: [String]) {
        self.global = global
        self.files = files
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.operands.isEmpty else { throw UsageError(message: "check needs a FILE") }
        self.init(global: GlobalOptions(arguments), files: arguments.operands)
    }

    func run() -> Int32 {
        StandardStreams.exitCode(after: ScriptRunner(options: global.shellOptions()).check(files: files))
    }
}
