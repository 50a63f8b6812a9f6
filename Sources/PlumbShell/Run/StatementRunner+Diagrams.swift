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
    var recordsLanes: Bool { options.marbles || options.svg != nil }

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
        if options.svg != nil, !run.lanes.isEmpty { diagrams.append((text, run)) }
        guard options.marbles, !quiet, options.format == .text, let lines = diagramLines(record) else { return }
        out.write(lines.joined(separator: "\n") + "\n")
        out.flush()
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
