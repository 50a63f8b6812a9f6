/// `plumb run FILE... | -`: scripts, statement by statement.
struct RunSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "run", summary: "run scripts, statement by statement",
        usage: [Usage(synopsis: "plumb run FILE... | -", description: ["run scripts, statement by statement"])],
        discussion: """
            Runs each script statement by statement, printing every event with its time since
            subscription and a summary line. A foreground pipeline runs to completion before the next
            statement; background jobs (`&`) are cancelled at the end of the script unless they have
            finished. `:`-commands work as in the REPL. `-` reads the script from standard input.
            A script with errors is reported and not run. Ctrl-C (SIGINT) cancels the running
            pipeline at once, even a synchronous source in the middle of its values: it prints
            `cancelled`, background jobs are cancelled, the script stops, and plumb ends by SIGINT
            (a shell shows status 130 and stops a loop running plumb). A second Ctrl-C before
            that ends plumb at once.

            OPTIONS  --clock real|virtual, --format text|jsonl, --no-color, --trace

            EXIT CODES
              0    every pipeline finished (or failed as an `expect failed` said it would)
              1    a pipeline failed, or an `expect` did not hold
              2    usage error, or a file could not be read
              65   a script has syntax or static errors (nothing of it ran)
              130  interrupted by Ctrl-C (SIGINT)
              141  standard output's reader went away; the running pipeline was cancelled

            EXAMPLE
              plumb --clock virtual run Examples/tour.pipe
            """,
        operands: .scripts)

    var global = GlobalOptions()
    /// The scripts; `-` is standard input.
    var files: [String] = []
    /// `--svg OUT.svg`: the diagrams of the script's foreground pipelines.
    var svg: String?

    init(global: GlobalOptions = GlobalOptions(), files: [String], svg: String? = nil) {
        self.global = global
        self.files = files
        self.svg = svg
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.operands.isEmpty else { throw UsageError(message: "run needs a FILE (or - for standard input)") }
        let svg = arguments.value("--svg")
        if let svg, !svg.hasSuffix(".svg") { throw UsageError(message: "--svg needs a file name ending in .svg, not '\(svg)'") }
        self.init(global: GlobalOptions(arguments), files: arguments.operands, svg: svg)
    }

    func run() -> Int32 {
        var options = global.shellOptions()
        options.svg = svg
        return StandardStreams.exitCode(after: ScriptRunner(options: options).run(files: files))
    }
}
