#if canImport(Glibc)
import Glibc
#endif

/// `plumb learn [DIR]`, `plumb learn --once [DIR]`, `plumb learn --reset FILE`: the workshop.
struct LearnSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "learn", summary: "the workshop, one exercise at a time (default: the exercises here)",
        usage: [
            Usage(synopsis: "plumb learn [DIR]", description: ["the workshop, one exercise at a time (default: the exercises here)"]),
            Usage(synopsis: "plumb learn --once [DIR]", description: ["check the exercises once: \"N/M done\" and the next one"]),
            Usage(synopsis: "plumb learn --reset FILE", description: ["restore an exercise to its first version"]),
        ],
        discussion: """
            Walks you through the workshop's exercises (NN-name.pipe in DIR; without DIR, the
            current folder when it holds exercises, else Examples/workshop under it, else those
            Scripts/install put in PREFIX/share/plumb/workshop) in order. Each is a short lesson in
            comments and a task: a pipeline with a `todo` where your answer goes, and `expect` lines
            that pass only when it is right. On a terminal, plumb learn shows how far you are ("3/15
            done"), the first exercise that does not pass, its lesson and what fails (a marble diff
            for `expect marbles`), and waits: save the file and it is checked again; when it passes,
            the next one comes. Keys: h the next hint, r check again, q or Ctrl-C quit.

            --once checks every exercise once, prints "N/M done" and the next exercise, and
            exits 0 only when all pass (for scripts, and for a teacher checking the room).
            --reset FILE restores an exercise from the pristine copy plumb learn keeps beside
            it (a hidden .NAME.pipe.pristine, made the first time it sees the exercise).

            Where DIR holds the exercise's solution (solutions/NAME.pipe, as the repository's
            workshop does), an answer whose expect lines hold is also run, beside the solution, on
            an input you cannot see: the exercise's pipelines with other letters in their
            strings, drawn anew at every check. It must do what the solution does there. The
            expect lines and pipelines stay as given (an answer goes in place of each todo), and
            where the solution writes one answer in every todo, so must you.

            Exercises run on the virtual clock: times are exact and nothing waits.
            """,
        operands: .scriptsOrFolders)

    enum Mode: Equatable {
        /// The exercises of a folder (nil: `WorkshopFolder`'s default), interactively (`once`
        /// false) or checked once.
        case workshop(directory: String?, once: Bool)
        /// `--reset FILE`.
        case reset(String)
    }

    var global = GlobalOptions()
    var mode: Mode

    init(global: GlobalOptions = GlobalOptions(), mode: Mode) {
        self.global = global
        self.mode = mode
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let file = arguments.value("--reset") {
            guard arguments.operands.isEmpty, !arguments.has("--once") else {
                throw UsageError(message: "learn --reset takes one FILE and nothing else")
            }
            self.init(global: GlobalOptions(arguments), mode: .reset(file))
        } else {
            guard arguments.operands.count <= 1 else { throw UsageError(message: "learn takes at most one folder") }
            let directory = arguments.operands.first
            self.init(global: GlobalOptions(arguments), mode: .workshop(directory: directory, once: arguments.has("--once")))
        }
    }

    func run() -> Int32 {
        let options = global.shellOptions()
        switch mode {
        case .workshop where ChildCheck.file != nil:
            // The child of `Workshop.check`: one exercise's status, for the parent to read.
            let status = Workshop.checkHere(Exercise(path: ChildCheck.file ?? "", text: ""), options: options)
            return StandardStreams.exitCode(after: StandardStreams.write(ChildCheck.encode(status)) ? ExitCode.success : ExitCode.failure)
        case .workshop(let directory, let once):
            return StandardStreams.exitCode(after: Learn(options: options).run(directory: directory, once: once || isatty(STDIN_FILENO) != 1))
        case .reset(let file):
            return StandardStreams.exitCode(after: Learn(options: options).reset(file))
        }
    }
}
