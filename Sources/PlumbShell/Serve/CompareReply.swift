import Foundation
import PipeLanguage
import PlumbDiagrams
import PlumbJSON

/// The room's Compare (`PLUMB_SERVE_WORKER=compare`): each pipeline of the text run pushed and
/// pulled as `:compare` and `plumb compare FILE` run it (`PipelineComparison`), with the events
/// side by side, both diagrams on one time axis as SVG, and the verdict with its `why:` lines; a
/// stage with no async twin (E410) is a diagnostic with its position, and nothing runs.
///
/// ```json
/// {"comparisons": [{"text": "…", "pushName": "…", "push": "…", "pullName": "…", "pull": "…",
///   "rows": [{"push": "+0.100s  value 0", "pull": "…", "differs": false}], "svg": "<svg…",
///   "differs": true, "verdict": ["differs: 1 line (marked ≠)", "why: …"]}], "diagnostics": []}
/// ```
enum CompareReply {
    static func make(text: String, file: String, diagnostics: JSON) -> JSON {
        let (plans, errors) = PipelineComparison.plans(of: text, file: file)
        if let first = errors.first {
            return .object([
                "diagnostics": .array(errors.map { ServeWorker.describe($0, in: text) }),
                "error": .object(["line": .int(first.location.line), "message": .string("\(first.id.code): \(first.message)")]),
            ])
        }
        guard !plans.isEmpty else {
            return .object(["diagnostics": diagnostics, "error": .object(["message": .string("no pipeline to compare")])])
        }
        let plain = Style(enabled: false)
        let comparisons: [JSON] = plans.map { statement, plan, preamble in
            let comparison = PipelineComparison(plan, preamble: preamble)
            let svg = comparison.diagram.map { MarbleSVG.render([$0], titles: [statement.text]) }
            return .object([
                "text": .string(statement.text), "line": .int(statement.location.line), "pushName": .string(plan.pushName), "push": .string(plan.push),
                "pullName": .string(plan.pullName), "pull": .string(plan.pull),
                "rows": .array(
                    comparison.rows.map { row in
                        .object(["push": row.push.map(JSON.string) ?? .null, "pull": row.pull.map(JSON.string) ?? .null, "differs": .bool(row.differs)])
                    }), "svg": svg.map(JSON.string) ?? .null, "differs": .bool(comparison.differs),
                "verdict": .array(comparison.verdict(style: plain).map(JSON.string)),
            ])
        }
        return .object(["diagnostics": diagnostics, "comparisons": .array(comparisons)])
    }
}
