import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

/// Marble diagrams in the shell: after each foreground run (`:marbles on`, the REPL's default;
/// `plumb run --marbles`), on request for the last run (`:marbles`) or a job (`:marbles N`), and
/// as SVG (`plumb run --svg OUT.svg`, `:export OUT.svg`).
extension StatementRunner {
    /// Whether runs record lanes: for a diagram printed after them, or for an SVG.
    var recordsLanes: Bool { options.recordsLanes }

    /// Live diagrams: the REPL on a terminal with the real clock and marbles on.
    var drawsLive: Bool {
        interactive && options.marbles && !quiet && options.format == .text && options.clock == .real
            && isatty(STDOUT_FILENO) == 1
    }

    /// The diagram of a recorded run, as lines (nil when nothing was recorded).
    func diagramLines(_ record: RunRecord) -> [String]? {
        let run = record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(record.duration))
        guard !run.lanes.isEmpty else { return nil }
        var lines = MarbleText.render(run, width: TerminalSize.columns, color: options.color)
        if record.marbles.truncated { lines.append(style.dim("(the diagram stops after \(MarbleRecording.maxEvents) events)")) }
        return lines
    }

    /// After a foreground run: print its diagram (text mode, marbles on) and keep it for an SVG.
    func finishDiagram(_ record: RunRecord, text: String) {
        let run = record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(record.duration))
        if options.svg != nil || options.keepsDiagrams, !run.lanes.isEmpty { runs.diagrams.append((text, run)) }
        guard options.marbles, !quiet, options.format == .text, let lines = diagramLines(record) else { return }
        out.write(lines.joined(separator: "\n") + "\n")
        out.flush()
    }

    /// Job `id`'s recorded run, once it has lanes (nil for no such job, or one not recorded).
    func jobDiagram(_ id: Int) -> MarbleRun? {
        guard let record = jobs.recorder(id)?.snapshot else { return nil }
        let run = record.marbles.snapshot(endingAt: EventFormatter.nanoseconds(record.duration))
        return run.lanes.isEmpty ? nil : run
    }

    /// Writes the diagrams as one SVG; the problem, if it could not.
    static func writeSVG(_ runs: [MarbleRun], titles: [String], to path: String) -> String? {
        writeFile(MarbleSVG.render(runs, titles: titles), to: path)
    }

    /// Writes `text` to `path` (created or truncated); the problem, if it could not.
    static func writeFile(_ svg: String, to path: String) -> String? {
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
        let reason =
            switch code {
            case ENOENT: "the folder \((path as NSString).deletingLastPathComponent) does not exist"
            case ENOSPC: "no space left on the device"
            default: ScriptFile.reason(code)
            }
        return "cannot write \(path): \(reason)"
    }
}
