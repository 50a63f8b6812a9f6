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
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
            return nil
        } catch {
            return "cannot write \(path): \(error.localizedDescription)"
        }
    }
}

/// The diagram drawn live under a foreground run's event lines on a terminal (real clock): the
/// event lines go to a deferred sink, and every redraw erases the diagram drawn last, writes the
/// lines that arrived meanwhile, and draws the diagram again, so nothing else on the screen moves.
///
/// A resized window (SIGWINCH) is re-fitted at the next redraw (at most 50 ms later): the erase
/// counts the rows the last diagram takes at the window's new width (`TerminalRows`, as a
/// terminal that rewraps lines shows them), so no stale copy stays above the new one, and the
/// event lines, which are never part of the diagram, are never erased.
final class LiveDiagram: @unchecked Sendable {
    // @unchecked: `drawn` is only touched under `lock`; `sink` is itself thread-safe.
    let sink = OutputSink(fd: STDOUT_FILENO, deferred: true)
    private let lock = Lock()
    private var drawn: [String] = []
    private let columns: @Sendable () -> Int

    /// - Parameter columns: The window's width now (read at each redraw).
    init(columns: @escaping @Sendable () -> Int = { Engine.diagramWidth }) {
        self.columns = columns
    }

    /// Writes pending lines while no diagram is on the screen yet (a synchronous source keeps the
    /// main thread busy; the interrupt watcher's tick calls this).
    func drainBeforeDrawn() {
        lock.guarded {
            guard drawn.isEmpty else { return }
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
            drawn = lines
        }
    }

    /// Takes the diagram off the screen and writes the last event lines (the final diagram is
    /// printed after them, as for any run).
    func finish() {
        lock.guarded {
            Self.write(erase() + sink.take())
            drawn = []
        }
    }

    /// Cursor up over the drawn diagram, as many rows as it takes at the window's width now, and
    /// clear to the end of the screen.
    private func erase() -> [UInt8] {
        drawn.isEmpty ? [] : Array("\u{1B}[\(TerminalRows.count(drawn, columns: columns()))A\r\u{1B}[J".utf8)
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
