/// `plumb swift [--program] FILE`: a script's pipelines as Swift Combine code.
struct SwiftSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "swift", summary: "the script's pipelines as Swift Combine code against Reactive",
        usage: [
            Usage(
                synopsis: "plumb swift [--program] FILE",
                description: ["the script's pipelines as Swift Combine code against Reactive", "(--program: one main.swift that compiles and runs)"])
        ],
        discussion: """
            Translates the script into Swift against the Reactive library, the Combine code its
            pipelines stand for: each pipeline statement's code after a comment with its line (one
            that cannot be translated says why). --program prints one main.swift instead, the whole
            script with its bindings, that compiles and runs (Scripts/check-swift compiles them
            and compares their output with `plumb run`). A script that :loads another is refused.

            EXIT CODES
              0    the code was printed
              2    usage error, or the file could not be read
              65   the script has syntax or static errors, or :loads another
            """,
        operands: .scripts)

    var global = GlobalOptions()
    var file: String
    /// `--program`: a whole main.swift.
    var program = false

    init(global: GlobalOptions = GlobalOptions(), file: String, program: Bool = false) {
        self.global = global
        self.file = file
        self.program = program
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.count == 1 else { throw UsageError(message: "swift takes one FILE") }
        self.init(global: GlobalOptions(arguments), file: arguments.operands[0], program: arguments.has("--program"))
    }

    func run() -> Int32 {
        StandardStreams.exitCode(after: ScriptRunner(options: global.shellOptions()).swift(file: file, program: program))
    }
}
