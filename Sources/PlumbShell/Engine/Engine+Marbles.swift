import Foundation
import PipeLanguage
import PlumbDiagrams
import Reactive

#if canImport(Glibc)
import Glibc
#endif

/// Marble diagrams in the shell: after each foreground run (`:marbles on`, the REPL's default;
/// `plumb run --marbles`), on request for the last run (`:marbles`) or a job (`:marbles N`), and
/// as SVG (`plumb run --svg OUT.svg`, `:export OUT.svg`).
extension Engine {
    /// Whether runs record lanes: for a diagram printed after them, or for an SVG.
    var recordsLanes: Bool { marbles || options.svg != nil || options.format == .jsonl && marbles }

    /// The terminal's width for diagrams: the window's, `$COLUMNS`, or 80.
    static var diagramWidth: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// The diagram of a recorded run, as lines (nil when nothing was recorded).
    func diagramLines(_ record: RunRecord) -> [String]? {
        let run = record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(record.duration))
        guard !run.lanes.isEmpty else { return nil }
        var lines = MarbleText.render(run, width: Self.diagramWidth, color: options.color)
        if record.marbles.truncated { lines.append(style.dim("(the diagram stops after \(MarbleRecording.maxEvents) events)")) }
        return lines
    }

    /// After a foreground run: print its diagram (text mode, marbles on) and keep it for an SVG.
    func finishDiagram(_ record: RunRecord, text: String) {
        let run = record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(record.duration))
        if options.svg != nil, !run.lanes.isEmpty { diagrams.append((text, run)) }
        guard marbles, !quiet, options.format == .text, let lines = diagramLines(record) else { return }
        out.write(lines.joined(separator: "\n") + "\n")
        out.flush()
    }

    /// `:marbles [on|off|N]`.
    func marblesCommand(_ argument: String, at location: SourceLocation) -> StepResult {
        switch argument {
        case "on": marbles = true
        case "off": marbles = false
        case "":
            guard let last else { return commandError("no pipeline has run yet", at: location) }
            guard let lines = diagramLines(last) else {
                return commandError("the last run was not recorded (:marbles on records the next ones)", at: location)
            }
            say(lines.joined(separator: "\n"))
            return .ok
        default:
            guard let id = Int(argument.hasPrefix("%") ? String(argument.dropFirst()) : argument) else {
                return usage(":marbles on|off|N", at: location)
            }
            guard let recorder = jobs.job(id)?.recorder ?? finishedJobs[id] else {
                return commandError("no job \(id)", at: location)
            }
            let record = recorder.snapshot
            var partial = record
            if record.termination == nil { partial.duration = session.runtime.now() - recorder.start }
            guard let lines = diagramLines(partial) else {
                return commandError("job \(id) was not recorded (it started with :marbles off)", at: location)
            }
            say(lines.joined(separator: "\n"))
            return .ok
        }
        say(style.dim("marbles are \(marbles ? "on" : "off")"))
        return .ok
    }

    /// `:export OUT.svg`: the last run's diagram as a standalone SVG.
    func exportCommand(_ path: String, at location: SourceLocation) -> StepResult {
        guard !path.isEmpty else { return usage(":export FILE.svg", at: location) }
        guard let last else { return commandError("no pipeline has run yet", at: location) }
        let run = last.marbles.snapshot(endingAt: EventFormatter.nanoseconds(last.duration))
        guard !run.lanes.isEmpty else { return commandError("the last run was not recorded (:marbles on records the next ones)", at: location) }
        if let problem = Self.writeSVG([run], titles: [lastText ?? ""], to: path) { return commandError(problem, at: location) }
        say(style.dim("wrote \(path)"))
        return .ok
    }

    /// Writes the diagrams as one SVG; the problem, if it could not.
    static func writeSVG(_ runs: [MarbleRun], titles: [String], to path: String) -> String? {
        let svg = MarbleSVG.render(runs, titles: titles)
        // write(2), so the reason is the errno's, in words a person can act on.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        var code = fd < 0 ? errno : 0
        if fd >= 0 {
            var bytes = Array(svg.utf8)[...]
            while !bytes.isEmpty, code == 0 {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 { if errno != EINTR { code = errno } } else { bytes = bytes.dropFirst(n) }
            }
            if close(fd) != 0, code == 0 { code = errno }
        }
        guard code != 0 else { return nil }
        let reason = switch code {
        case ENOENT: "the folder \((path as NSString).deletingLastPathComponent) does not exist"
        case ENOSPC: "no space left on the device"
        default: ScriptFile.reason(code)
        }
        return "cannot write \(path): \(reason)"
    }
}

/// The diagram drawn live under a foreground run's event lines on a terminal (real clock): the
/// event lines go to a deferred sink, and every redraw erases the diagram drawn last, writes the
/// lines that arrived meanwhile, and draws the diagram again, so nothing else on the screen moves.
final class LiveDiagram: @unchecked Sendable {
    // @unchecked: `drawnLines` is only touched under `lock`; `sink` is itself thread-safe.
    let sink = OutputSink(fd: STDOUT_FILENO, deferred: true)
    private let lock = Lock()
    private var drawnLines = 0

    /// Writes pending lines while no diagram is on the screen yet (a synchronous source keeps the
    /// main thread busy; the interrupt watcher's tick calls this).
    func drainBeforeDrawn() {
        lock.guarded {
            guard drawnLines == 0 else { return }
            Self.write(sink.take())
        }
    }

    /// Replaces the diagram on the screen with `lines`, after the event lines that came meanwhile.
    func redraw(_ lines: [String]) {
        lock.guarded {
            var bytes = erase()
            bytes += sink.take()
            for line in lines {
                bytes += Array(line.utf8)
                bytes.append(10)
            }
            Self.write(bytes)
            drawnLines = lines.count
        }
    }

    /// Takes the diagram off the screen and writes the last event lines (the final diagram is
    /// printed after them, as for any run).
    func finish() {
        lock.guarded {
            Self.write(erase() + sink.take())
            drawnLines = 0
        }
    }

    /// Cursor up over the drawn diagram and clear to the end of the screen.
    private func erase() -> [UInt8] {
        drawnLines == 0 ? [] : Array("\u{1B}[\(drawnLines)A\r\u{1B}[J".utf8)
    }

    /// Writes to the terminal through the sink's own writer (retries, EAGAIN, failure recording).
    private static func write(_ bytes: [UInt8]) {
        if !bytes.isEmpty { OutputSink.writeAll(fd: STDOUT_FILENO, bytes) }
    }
}

extension Engine {
    /// Live diagrams: the REPL on a terminal with the real clock and marbles on.
    var drawsLive: Bool {
        interactive && marbles && !quiet && options.format == .text && session.runtime.clock == .real
            && isatty(STDOUT_FILENO) == 1
    }

    /// The diagram of a run still going, up to now.
    func liveLines(_ recorder: RunRecorder) -> [String] {
        var record = recorder.snapshot
        if record.termination == nil { record.duration = session.runtime.now() - recorder.start }
        return diagramLines(record) ?? []
    }
}
