import Foundation
import PipeLanguage
import PlumbDiagrams
import PlumbJSON

/// The room's Step (`PLUMB_SERVE_WORKER=step`): the text's statements run as a run does, but its
/// last, a foreground pipeline, is stepped through (`StepTimeline`, `:step`'s own stepping), and
/// the reply holds every pause: its time, what `:step` prints there, and the diagram so far as
/// SVG. The page moves through them with Step, Continue and its time slider.
///
/// ```json
/// {"steps": [{"ns": 0, "time": "0 ms", "lines": [], "svg": "<svg…"}, …], "ending": "ended", "diagnostics": []}
/// ```
enum StepReply {
    /// The SVG bytes one reply carries at most (the room caps a child's output at 2 MiB): pauses
    /// past it are left out and the reply says `"ending": "pauseLimit"`.
    static let svgBudget = 1_200_000

    static func make(text: String, file: String, compiled: (statements: [Statement], diagnostics: [Diagnostic]), options: ShellOptions, diagnostics: JSON)
        -> JSON
    {
        func problem(_ message: String, line: Int? = nil) -> JSON {
            var error: [String: JSON] = ["message": .string(message)]
            if let line { error["line"] = .int(line) }
            return .object(["diagnostics": diagnostics, "error": .object(error)])
        }
        guard let last = compiled.statements.last, last.runsPipeline, !last.runsInBackground else {
            return problem("Step needs a pipeline to step through: the text's last statement must be one (such as interval 100ms | take 3)")
        }
        // What comes before it (bindings, subjects) runs as a run runs it; its output is not shown.
        let quiet = OutputSink(fd: -1, deferred: true)
        let runner = StatementRunner(options: options, out: quiet, wake: WakePipe(), verbosity: .silent)
        let before = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(last.location.line - 1).joined(separator: "\n")
        if !before.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            _ = runner.run(text: before, file: file)
            if let error = runner.report.firstError { return problem(error.message, line: error.location.line) }
        }
        let again = runner.session.compile(last.text, file: file, firstLine: last.location.line)
        guard let statement = again.statements.first, !again.diagnostics.contains(where: { $0.severity == .error }) else {
            return problem("the last statement could not be read again after the ones before it ran", line: last.location.line)
        }
        let pipeline: Pipeline
        switch runner.session.execute(statement) {
        case .failure(let diagnostic): return problem(diagnostic.message, line: diagnostic.location.line)
        case .success(.run(let run)): pipeline = run
        case .success: return problem("Step needs a pipeline to step through", line: last.location.line)
        }
        let timeline = StepTimeline.record(pipeline, runtime: runner.session.runtime, horizon: options.until)
        var steps: [JSON] = []
        var bytes = 0
        var ending = timeline.ending.rawValue
        for pause in timeline.pauses {
            let svg = pause.diagram.lanes.isEmpty ? nil : MarbleSVG.render([pause.diagram], titles: [last.text], width: ServeWorker.diagramWidth)
            bytes += svg?.utf8.count ?? 0
            if bytes > svgBudget {
                ending = StepTimeline.Ending.pauseLimit.rawValue
                break
            }
            steps.append(
                .object([
                    "ns": .int(Int(pause.nanoseconds)), "time": .string(EventFormatter.durationText(.nanoseconds(pause.nanoseconds))),
                    "lines": .array(pause.lines.map(JSON.string)), "svg": svg.map(JSON.string) ?? .null,
                ]))
        }
        return .object(["diagnostics": diagnostics, "steps": .array(steps), "ending": .string(ending), "text": .string(last.text)])
    }
}
