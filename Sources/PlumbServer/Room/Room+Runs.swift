import Foundation
import PipeLanguage

/// Runs and checks: each in a child (`WorkerProcess`), in the room's line (`RunQueue`), one at a
/// time per learner, streamed back as newline-delimited JSON: `{"queued": N}` while waiting,
/// `{"event": …}` as the run goes, and one `{"result": …}` at the end.
extension Room {
    enum RunKind: String {
        case run, check
    }

    /// Where a run's lines go: the response to its request (newline-delimited JSON), or the
    /// learner's event stream (`event: run`, each line with `"run": ID`), the request answered
    /// at once with 202.
    enum RunDelivery: Sendable {
        case response
        case events(learner: String, run: String)
    }

    /// Starts a run and answers with its stream.
    /// - Parameters:
    ///   - learner: the learner it counts against (one run at a time each); nil for the teacher.
    ///   - finish: makes the result line from how the child ended and the events it sent; called
    ///     on the run's own thread (it may save progress).
    func startRun(
        kind: RunKind, text: String, name: String, learner: String?, delivery: RunDelivery = .response,
        finish: @escaping @Sendable (WorkerOutcome, [JSON]) -> JSON
    ) -> HTTPResponse {
        if let learner {
            let free = busy.withLock { $0.insert(learner).inserted }
            guard free else { return .error(429, "your last run is still going: wait for its result") }
        }
        if queue.counts.waiting >= queue.maxWaiting {
            if let learner { _ = busy.withLock { $0.remove(learner) } }
            return .error(503, "the room is busy: try again in a moment")
        }
        let stream = ResponseStream()
        let events = self.events
        // Each line of the run, to wherever it goes; false: nobody reads it any more.
        let send: @Sendable (JSON) -> Bool
        switch delivery {
        case .response: send = { stream.append(line: $0) }
        case .events(let id, let run):
            send = { line in
                events.send("run", line.merging(.object(["run": .string(run)])), to: { $0 == .learner(id) })
                return true
            }
        }
        let worker = configuration.worker
        let limits = configuration.runLimits
        tableChanged()
        let thread = Thread { [self] in
            defer {
                if let learner { _ = busy.withLock { $0.remove(learner) } }
                stream.close()
                tableChanged()
            }
            let kept = LockedState<[JSON]>([])
            let outcome = queue.run(place: { send(.object(["queued": .int($0)])) }) {
                WorkerProcess.run(kind: kind.rawValue, text: text, name: name, command: worker, limits: limits) { event in
                    kept.withLock { if $0.count < 200 { $0.append(event) } }
                    return send(.object(["event": event]))
                }
            }
            guard let outcome else {
                _ = send(.object(["result": .object(["error": .object(["message": .string("the room is busy: try again in a moment")])])]))
                return
            }
            _ = send(.object(["result": finish(outcome, kept.withLock { $0 })]))
        }
        thread.name = "plumb-serve-run"
        thread.start()
        if case .events(_, let run) = delivery { return .json(202, .object(["run": .string(run)])) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson; charset=utf-8")], body: .stream(stream))
    }

    /// The result line of a playground run (or the teacher's): the child's own, or why it ended.
    static func runResult(_ outcome: WorkerOutcome, limits: RunLimits) -> JSON {
        switch outcome {
        case .finished(let result): return result
        default: return .object(["error": .object(["message": .string(endedMessage(outcome, limits: limits))])])
        }
    }

    /// Why a child gave no result, in the learner's words.
    static func endedMessage(_ outcome: WorkerOutcome, limits: RunLimits) -> String {
        switch outcome {
        case .finished: return ""
        case .timedOut:
            return "stopped after \(Int(limits.seconds)) s of real time: does a source never end? (take, prefix or timeout end it)"
        case .outputLimit:
            return "stopped after \(limits.maxEvents) events (or \(limits.maxBytes / 1024) KiB): the room caps each run's output"
        case .memoryLimit:
            return
                "stopped: the run needed more than \(limits.memoryBytes >> 20) MiB of memory, the room's limit for each run (does it collect or build up values without end?)"
        case .crashed(let message): return message
        }
    }

    /// Refuses `:` lines (`:load FILE`, `:export FILE`, `:clock` …): nothing a learner sends
    /// reaches the file system or changes the shell. Nil when there is none.
    public static func refusedCommands(_ text: String) -> JSON? {
        let hosts = ScriptLines(text).hostLines
        guard let first = hosts.first else { return nil }
        let message =
            "':\(first.name)' is a shell command, and the room runs only pipelines, bindings and expect lines (no files are read or written here)"
        let start = utf16Offset(of: first.line, column: first.column, in: text)
        let diagnostic: JSON = .object([
            "id": .string(RoomDiagnostic.commandRefused.code), "name": .string(RoomDiagnostic.commandRefused.name),
            "severity": .string("error"), "line": .int(first.line), "column": .int(first.column), "message": .string(message),
            "start": .int(start), "end": .int(start + first.text.utf16.count),
            "rendered": .string("\(first.line):\(first.column): error[\(RoomDiagnostic.commandRefused.code)]: \(message)\n  \(first.text)"),
        ])
        return .object(["diagnostics": .array([diagnostic])])
    }

    /// The UTF-16 offset (what a browser's text field counts) of a line and column (from 1).
    static func utf16Offset(of line: Int, column: Int, in text: String) -> Int {
        var offset = 0
        var current = 1
        for scalar in text.unicodeScalars {
            if current == line { break }
            offset += scalar.utf16.count
            if scalar == "\n" { current += 1 }
        }
        return offset + max(0, column - 1)
    }
}

/// The room's own diagnostics (the 8xx), beside the language's and the shell's: a layer like
/// theirs, so the ids are in the golden list and `plumb help diagnostics`, and no other layer
/// can take their numbers.
public enum RoomCode: Int, DiagnosticCode {
    public static let layer = "room"

    /// A `:command` (`:load`, `:export` …) sent by a learner: nothing a learner sends reaches the
    /// file system or the process.
    case commandNotInRoom = 801
    /// An exercise checked with its `expect` lines changed: they are the check.
    case expectLinesChanged = 802
}

/// The room's diagnostics as the pages show them (code and name).
struct RoomDiagnostic: Sendable {
    let code: String
    let name: String

    init(_ code: RoomCode) {
        self.code = code.id.code
        self.name = code.id.name
    }

    static let commandRefused = RoomDiagnostic(.commandNotInRoom)
    static let expectChanged = RoomDiagnostic(.expectLinesChanged)
}
