/// `plumb compare FILE`: each pipeline of a script run pushed (Combine) and pulled (AsyncSequence).
struct CompareSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "compare", summary: "run each pipeline of a script as Combine publishers and as async sequences, and show where they differ",
        usage: [
            Usage(
                synopsis: "plumb compare FILE",
                description: ["run each pipeline as Combine publishers and as async sequences,", "side by side on the virtual clock"])
        ],
        discussion: """
            Runs every pipeline statement of the script twice on a fresh virtual clock, as :compare
            does at the prompt: as written, with Combine's publishers, and with values after its
            source so every later stage is its async twin (a pipeline that crosses itself compares
            stream against values instead). Prints both runs' events side by side with the lines
            that differ marked ≠, both diagrams on one time axis (--marbles; --svg OUT.svg writes
            them as a picture), and each differing stage's documented reason. The script's lets
            are in scope; expects are not checked.

            EXIT CODES
              0    every pipeline printed the same events at the same times both ways
              1    at least one pipeline differed
              2    usage error, or the file could not be read
              65   the script has errors, or a stage has no async twin (E410): nothing ran

            EXAMPLE
              plumb compare --marbles Examples/compare.pipe
            """,
        operands: .scripts)

    var global = GlobalOptions()
    var file: String
    /// `--svg OUT.svg`: each comparison's two runs, on one time axis per comparison.
    var svg: String?

    init(global: GlobalOptions = GlobalOptions(), file: String, svg: String? = nil) {
        self.global = global
        self.file = file
        self.svg = svg
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.count == 1 else { throw UsageError(message: "compare takes one FILE") }
        let svg = arguments.value("--svg")
        if let svg, !svg.hasSuffix(".svg") { throw UsageError(message: "--svg needs a file name ending in .svg, not '\(svg)'") }
        self.init(global: GlobalOptions(arguments), file: arguments.operands[0], svg: svg)
    }

    func run() -> Int32 {
        let options = global.shellOptions()
        let text: String
        switch ScriptFile.read(file) {
        case .success(let t): text = t
        case .failure(let failure):
            writeStandardError(.unreadableFile(failure.message))
            return StandardStreams.exitCode(after: ExitCode.usage)
        }
        let result = PipelineComparison.script(
            text, file: file == "-" ? "<stdin>" : file, style: Style(enabled: options.color), width: TerminalSize.columns,
            marbles: options.marbles)
        if !result.errors.isEmpty { writeStandardError(result.errors) }
        if !result.out.isEmpty { _ = StandardStreams.write(result.out) }
        var code = result.code
        if let svg, code != ExitCode.dataError {
            let runs = result.comparisons.compactMap { c in c.diagram.map { (c.plan.push + "  /  " + c.plan.pull, $0) } }
            if let problem = StatementRunner.writeSVG(runs.map(\.1), titles: runs.map(\.0), to: svg) {
                writeStandardError(.cannotWriteFile(problem))
                code = ExitCode.worst(code, ExitCode.usage)
            }
        }
        return StandardStreams.exitCode(after: code)
    }
}
