import Foundation
import PlumbJSON
import PipeLanguage
import PlumbDiagrams
import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// The child `plumb serve` starts for each learner's run, step-through or check
/// (`PLUMB_SERVE_WORKER=run`, `step`, `compare` or `check`): reads the text on standard input, writes the run's events as jsonl as they happen,
/// then one `{"result": …}` line (the diagram as SVG, diagnostics with positions and fix-its, the
/// check's verdict). It reads no file and writes none, and ends with its parent.
enum ServeWorker {
    static let variable = "PLUMB_SERVE_WORKER"
    /// The absolute path of the workshop folder the room serves, for the worker's checks.
    static let workshopVariable = "PLUMB_SERVE_WORKSHOP"

    /// `run`, `step`, `compare` or `check` when this process is such a child.
    static var mode: String? { ProcessInfo.processInfo.environment[variable] }

    /// The widest the diagrams are drawn (`PLUMB_SERVE_DIAGRAM_WIDTH`, set for the presented
    /// pipeline: the present view fits it to a projector's width), else `MarbleSVG`'s default.
    static var diagramWidth: Double {
        ProcessInfo.processInfo.environment["PLUMB_SERVE_DIAGRAM_WIDTH"].flatMap(Double.init).map { min(max($0, 320), MarbleSVG.defaultWidth) }
            ?? MarbleSVG.defaultWidth
    }

    /// How far a virtual run goes while only an endless timer keeps it going.
    static let horizon: Int64 = 60_000_000_000

    static func run(mode: String) -> Int32 {
        // Before `confine` starts the first thread: the memory limit then counts what the text
        // allocates, not how many threads run it.
        RunLimits.boundThreadStacks()
        confine()
        let out = OutputSink(fd: STDOUT_FILENO)
        func emit(_ result: JSON) -> Int32 {
            out.write(JSON.object(["result": result]).encoded + "\n")
            out.flush()
            return ExitCode.success
        }
        let input = readInput(limit: 64 * 1024)
        guard let text = String(validating: input, as: UTF8.self) else {
            return emit(
                .object(["passed": .bool(false), "message": .string("the text is not UTF-8"), "error": .object(["message": .string("the text is not UTF-8")])]))
        }
        let name = fileName(ProcessInfo.processInfo.environment["PLUMB_SERVE_NAME"])
        if let refused = Room.refusedCommands(text) { return emit(refused.merging(.object(["passed": .bool(false)]))) }
        var options = ShellOptions()
        options.clock = .virtual
        options.format = .jsonl
        options.until = horizon
        // Lanes are recorded for the diagram; nothing is written to a file.
        options.svg = ""
        let compiled = Session(runtime: Runtime(clock: .virtual)).compile(text, file: name)
        let diagnostics = JSON.array(compiled.diagnostics.map { describe($0, in: text) })
        if let error = compiled.diagnostics.first(where: { $0.severity == .error }) {
            return emit(
                .object([
                    "passed": .bool(false), "line": .int(error.location.line), "message": .string("\(error.id.code): \(error.message)"),
                    "diagnostics": diagnostics,
                ]))
        }
        switch mode {
        case "step":
            return emit(StepReply.make(text: text, file: name, compiled: compiled, options: options, diagnostics: diagnostics))
        case "compare":
            return emit(CompareReply.make(text: text, file: name, diagnostics: diagnostics))
        case "check":
            // The folder `plumb serve` serves (`ServeCommand` names it): the exercise's solution
            // is there, for the hidden-input check `plumb learn` makes too.
            let (status, diagrams) = Workshop.check(
                text: text, file: name, options: options, workshop: ProcessInfo.processInfo.environment[Self.workshopVariable])
            var result: [String: JSON] = ["diagnostics": diagnostics, "svg": svg(diagrams)]
            switch status {
            case .passed: result["passed"] = .bool(true)
            case .failed(let line, let message):
                result["passed"] = .bool(false)
                result["line"] = .int(line)
                result["message"] = .string(message)
            case .unreadable(let message):
                result["passed"] = .bool(false)
                result["message"] = .string(message)
            }
            return emit(.object(result))
        default:
            let runner = StatementRunner(options: options, out: out, wake: WakePipe(), verbosity: .normal)
            let step = runner.run(text: text, file: name)
            let report = runner.finish()
            out.flush()
            var result: [String: JSON] = ["diagnostics": diagnostics, "svg": svg(runner.diagrams)]
            if case .expectationFailed(let message, let location) = step {
                result["expectation"] = .object(["line": .int(location.line), "message": .string(message)])
            }
            if let error = report.firstError {
                result["error"] = .object(["line": .int(error.location.line), "message": .string(error.message)])
            }
            return emit(.object(result))
        }
    }

    private static func svg(_ diagrams: [(text: String, run: MarbleRun)]) -> JSON {
        let drawn = diagrams.filter { !$0.run.lanes.isEmpty }
        guard !drawn.isEmpty else { return .null }
        return .string(MarbleSVG.render(drawn.map(\.run), titles: drawn.map(\.text), width: diagramWidth))
    }

    /// A diagnostic as the page shows it: its id, words, the rendered source excerpt, the id's
    /// explanation (as `plumb help ID` prints it), its range in
    /// the browser's units (UTF-16), and the text with its first fix-it made, if it has one.
    static func describe(_ diagnostic: Diagnostic, in text: String) -> JSON {
        let positions = UTF16Positions(text)
        let start = positions.utf16Offset(ofUTF8: diagnostic.offset)
        let endUTF8 = positions.utf8Offset(diagnostic.offset, advancedByScalars: diagnostic.length)
        var fields: [String: JSON] = [
            "id": .string(diagnostic.id.code), "name": .string(diagnostic.id.name),
            "severity": .string(diagnostic.severity == .error ? "error" : diagnostic.severity == .warning ? "warning" : "note"),
            "line": .int(diagnostic.location.line), "column": .int(diagnostic.location.column), "message": .string(diagnostic.message),
            "rendered": .string(diagnostic.rendered(source: text, color: false)), "start": .int(start),
            "end": .int(max(start, positions.utf16Offset(ofUTF8: endUTF8))), "notes": .array(diagnostic.notes.map { .string($0.message) }),
        ]
        if let help = diagnostic.help { fields["help"] = .string(help) }
        // The room has no `plumb help` at hand: the id's explanation goes with it, for the page to
        // show under the diagnostic.
        fields["explanation"] = .string(HelpText.diagnostic(diagnostic.id))
        if !diagnostic.fixIts.isEmpty, let fixed = FixIt.applyingFirstFixes(of: [diagnostic], to: text) { fields["fixed"] = .string(fixed) }
        return .object(fields)
    }

    /// The run's name in messages: the server's (`01-map.pipe`, `playground`), letters, digits and
    /// `.-_` only.
    private static func fileName(_ given: String?) -> String {
        let name = given ?? "input"
        let allowed = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }
        return allowed && !name.isEmpty && name.count <= 64 ? name : "input"
    }

    /// Standard input, at most `limit` bytes (the server sends no more).
    private static func readInput(limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= limit {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return Array(bytes.prefix(limit))
    }

    /// Limits the child keeps itself to, whatever the text does: no file written (a size limit
    /// of 0), CPU time capped, and gone as soon as its parent is.
    private static func confine() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &none)
        signal(SIGXFSZ, SIG_IGN)
        var cpu = rlimit(rlim_cur: 15, rlim_max: 20)
        setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu)
        let parent = getppid()
        let watcher = Thread {
            while getppid() == parent { usleep(100_000) }
            _exit(ExitCode.failure)
        }
        watcher.name = "plumb-serve-worker-parent-watch"
        watcher.start()
    }
}
