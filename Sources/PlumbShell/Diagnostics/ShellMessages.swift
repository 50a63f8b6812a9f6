import PipeLanguage
import PlumbServer

/// The shell's own diagnostics (the 7xx; warnings from 951): what goes wrong around the language
/// rather than in it: a `:command`, a file, a stream, the command line. Every error the shell
/// prints is one of these (the language's are `Diagnostic`s from `Session.compile`), so each has
/// an id `plumb help diagnostics` lists and `:help E701` explains.
enum ShellCode: Int, DiagnosticCode {
    static let layer = "shell"

    // `:commands`
    case unknownCommand = 701
    case commandUsage = 702
    case noSuchJob = 703
    case nothingRecorded = 704
    case loadCycle = 705
    case loadTooDeep = 706
    case cannotTranslateLoad = 707
    case unknownHelpTopic = 708

    // Files and streams
    case unreadableFile = 710
    case invalidInputLine = 711
    case unreadableInput = 712
    case noScripts = 713
    case cannotWriteFile = 714
    case cannotWriteOutput = 715

    // The command line and the machine
    case commandLineUsage = 720
    case resourceLimit = 721
    case workshopProblem = 722

    // Time control (`:step` and the commands of a paused run)
    case noPausedRun = 730
    case steppingNeedsVirtualClock = 731
    case runIsPaused = 732
    case noSuchStage = 733
    case notAPipeline = 734
    case editorFailed = 735
    case needsTerminal = 736
    case nothingToEdit = 737

    // Warnings
    case historyNotSaved = 951
}

/// A shell diagnostic's id with its text, made next to the codes; the caller adds where.
struct ShellMessage: Sendable, Equatable {
    let id: DiagnosticID
    let text: String

    init(_ code: ShellCode, _ text: String) {
        id = code.id
        self.text = text
    }

    /// How the shell prints it: `file:line: error[E703]: text` at a script's line, `error[E703]: text`
    /// at the REPL's prompt, `plumb: error[E712]: text` for plumb as a whole; then the line that
    /// says how to read the id's explanation.
    func rendered(at location: SourceLocation?, interactive: Bool = false, color: Bool) -> String {
        let style = Style(enabled: color)
        let word = id.severity == .warning ? "warning" : "error"
        let label = id.severity == .warning ? word : style.red(word)
        let prefix: String
        if let location {
            prefix = interactive ? "" : "\(location.file):\(location.line): "
        } else {
            prefix = "plumb: "
        }
        // Its text quotes what came from outside (a path, a command, an argument): made safe here.
        let hint = DiagnosticID.explanationHint(for: [id], interactive: interactive && location != nil).map { style.dim($0) + "\n" } ?? ""
        return prefix + label + "[\(id.code)]: \(TerminalText.escapedLines(Diagnostic.capped(text)))\n" + hint
    }
}

extension ShellMessage {
    static func unknownCommand(_ text: String) -> ShellMessage { ShellMessage(.unknownCommand, text) }
    static func usage(_ syntax: String) -> ShellMessage { ShellMessage(.commandUsage, "usage: \(syntax)") }
    static func noSuchJob(_ text: String) -> ShellMessage { ShellMessage(.noSuchJob, text) }
    static func nothingRecorded(_ text: String) -> ShellMessage { ShellMessage(.nothingRecorded, text) }
    static func loadCycle(_ chain: String) -> ShellMessage {
        ShellMessage(.loadCycle, ":load cycle: \(chain) (a script cannot load itself, directly or through others)")
    }
    static func loadTooDeep(_ depth: Int, _ chain: String) -> ShellMessage {
        ShellMessage(.loadTooDeep, ":load nests more than \(depth) scripts deep: \(chain)")
    }
    static func cannotTranslateLoad(_ argument: String, file: String) -> ShellMessage {
        ShellMessage(
            .cannotTranslateLoad,
            "plumb swift cannot translate ':load \(argument)': the loaded script's pipelines are not in \(file) (translate \(argument) on its own, or put its lines here)"
        )
    }
    static func unreadableFile(_ text: String) -> ShellMessage { ShellMessage(.unreadableFile, text) }
    static func invalidInputLine(_ reason: String) -> ShellMessage { ShellMessage(.invalidInputLine, reason) }
    static func unreadableInput(_ reason: String) -> ShellMessage {
        ShellMessage(.unreadableInput, "cannot read standard input: \(reason)")
    }
    static func noScripts(_ text: String) -> ShellMessage { ShellMessage(.noScripts, text) }
    static func cannotWriteFile(_ text: String) -> ShellMessage { ShellMessage(.cannotWriteFile, text) }
    static func cannotWriteOutput(_ reason: String) -> ShellMessage {
        ShellMessage(.cannotWriteOutput, "cannot write to standard output: \(reason)")
    }
    static func commandLineUsage(_ text: String) -> ShellMessage { ShellMessage(.commandLineUsage, text) }
    static func resourceLimit(_ text: String) -> ShellMessage { ShellMessage(.resourceLimit, text) }
    static func workshopProblem(_ text: String) -> ShellMessage { ShellMessage(.workshopProblem, text) }
    static func noPausedRun(_ command: String) -> ShellMessage {
        ShellMessage(.noPausedRun, "\(command) needs a paused run: :step PIPELINE starts one")
    }
    static let steppingNeedsVirtualClock = ShellMessage(
        .steppingNeedsVirtualClock,
        ":step needs the virtual clock, where time moves only when told: :clock virtual switches (bindings are cleared), or start plumb --clock virtual")
    static func runIsPaused(_ at: String) -> ShellMessage {
        ShellMessage(
            .runIsPaused,
            "a stepped run is paused at \(at), and this pipeline would move its clock: :continue or :stop it first (or run this one with & as a job)")
    }
    static func noSuchStage(_ text: String) -> ShellMessage { ShellMessage(.noSuchStage, text) }
    static func notAPipeline(_ command: String) -> ShellMessage {
        ShellMessage(.notAPipeline, "\(command) takes a pipeline to run in the foreground (no let, send, expect or &)")
    }
    static func editorFailed(_ text: String) -> ShellMessage { ShellMessage(.editorFailed, text) }
    static func needsTerminal(_ command: String) -> ShellMessage {
        ShellMessage(.needsTerminal, "\(command) works at the interactive prompt, not in a script or piped input")
    }
    static func nothingToEdit(_ text: String) -> ShellMessage { ShellMessage(.nothingToEdit, text) }
    static func historyNotSaved(_ path: String, _ problem: String) -> ShellMessage {
        ShellMessage(.historyNotSaved, "history will not be saved: \(path): \(problem)")
    }
}

/// Prints a shell diagnostic to standard error at once.
func writeStandardError(_ message: ShellMessage, at location: SourceLocation? = nil, interactive: Bool = false, color: Bool = false) {
    writeStandardError(message.rendered(at: location, interactive: interactive, color: color))
}

extension DiagnosticID {
    /// Every diagnostic plumb can report: the language's layers, the shell's and the room's.
    static var everyLayer: [DiagnosticID] { (all + ShellCode.ids + RoomCode.ids).sorted() }

    /// The id with this code or name in any layer (`E701`, `unknown-command`), ignoring case.
    static func anyNamed(_ codeOrName: String) -> DiagnosticID? {
        named(codeOrName) ?? (ShellCode.ids + RoomCode.ids).first { $0.code.lowercased() == codeOrName.lowercased() || $0.name == codeOrName.lowercased() }
    }
}
