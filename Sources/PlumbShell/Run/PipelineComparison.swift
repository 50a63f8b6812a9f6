import PipeLanguage
import PlumbDiagrams

/// `:compare PIPELINE` and `plumb compare FILE`: the pipeline run pushed and pulled
/// (`ComparisonPlan`), each on a fresh virtual clock, its events side by side with the lines that
/// differ marked `≠`, both diagrams on one time axis, and the documented reasons.
///
/// ```swift
/// let plan = try Session(runtime: Runtime(clock: .virtual)).comparisonPlan(of: "interval 100ms | take 3 | debounce 150ms").get()
/// let comparison = PipelineComparison(plan)
/// comparison.differs   // true: the async debounce emits 2 at the base's finish
/// ```
struct PipelineComparison {
    /// One row of the side-by-side listing: a line of each run, nil where that run has none.
    struct Row: Equatable {
        var push: String?
        var pull: String?
        var differs: Bool { push != pull }
    }

    let plan: ComparisonPlan
    let push: CapturedRun
    let pull: CapturedRun
    /// The two runs' events, aligned where they agree.
    let rows: [Row]

    /// Runs both texts after `preamble` (the `let`s before the pipeline in a script).
    init(_ plan: ComparisonPlan, preamble: String = "") {
        self.plan = plan
        push = CapturedRun(script: preamble + plan.push + "\n", file: "push")
        pull = CapturedRun(script: preamble + plan.pull + "\n", file: "pull")
        rows = Self.align(push.events.map(Self.eventOnly), pull.events.map(Self.eventOnly))
    }

    /// A fresh virtual-clock session with the prompt's bindings made again (`let NAME = TEXT`, in
    /// the order they were first bound; a subject starts empty), and those lets as a script to run
    /// before each side. When they do not compile again by themselves (a rebinding that named its
    /// old self), none is replayed: a name is then an error at its position.
    static func session(replaying bindings: [BindingSummary]) -> (Session, preamble: String) {
        let preamble = bindings.map { "let \($0.name) = \($0.text)\n" }.joined()
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(preamble, file: "<bindings>")
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (Session(runtime: Runtime(clock: .virtual)), "") }
        for statement in statements { _ = session.execute(statement) }
        return (session, preamble)
    }

    /// Whether the runs printed anything different (values, times, how they ended).
    var differs: Bool { rows.contains(where: \.differs) }

    /// An event line without the closing summary (`1 value in 300 ms`), which differs whenever a
    /// value does: the value's own line already says so.
    static func eventOnly(_ line: String) -> String {
        var text = line.drop { $0 == " " }
        guard text.hasPrefix("+"), let gap = text.range(of: "  ") else { return String(text) }
        let event = text[gap.upperBound...]
        for word in ["finished", "failed", "cancelled"] where event.hasPrefix(word) {
            if let summary = event.range(of: "  ") { text = text[..<summary.lowerBound] }
        }
        return String(text)
    }

    /// The longest common subsequence of the two listings, with what is only in one of them on a
    /// row of its own (a line of each side paired when both have one there).
    static func align(_ a: [String], _ b: [String]) -> [Row] {
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var rows: [Row] = []
        var (i, j) = (0, 0)
        var onlyA: [String] = []
        var onlyB: [String] = []
        func flush() {
            for k in 0..<max(onlyA.count, onlyB.count) {
                rows.append(Row(push: k < onlyA.count ? onlyA[k] : nil, pull: k < onlyB.count ? onlyB[k] : nil))
            }
            onlyA = []
            onlyB = []
        }
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                flush()
                rows.append(Row(push: a[i], pull: b[j]))
                i += 1
                j += 1
            } else if j >= b.count || (i < a.count && common[i + 1][j] >= common[i][j + 1]) {
                onlyA.append(a[i])
                i += 1
            } else {
                onlyB.append(b[j])
                j += 1
            }
        }
        flush()
        return rows
    }

    /// Both runs' lanes in one run, the pushed run's first, so they share one time axis; each
    /// lane's label says its side.
    var diagram: MarbleRun? {
        var combined = MarbleRun()
        for (side, run) in [("push", push.run), ("pull", pull.run)] {
            guard let run else { continue }
            let offset = combined.lanes.count
            for lane in run.lanes {
                var lane = lane
                if lane.kind == .stage { lane.label = "\(side) \(lane.label)" }
                lane.parent = lane.parent.map { $0 + offset }
                combined.lanes.append(lane)
            }
            combined.end = max(combined.end, run.end)
        }
        return combined.lanes.isEmpty ? nil : combined
    }

    /// The reasons of the stages whose lanes differ between the runs (all of them when the
    /// recordings cannot tell which did).
    var reasons: [String] {
        func stageLanes(_ run: MarbleRun?) -> [MarbleLane] { run?.lanes.filter { $0.parent == nil && $0.kind == .stage } ?? [] }
        let (pushLanes, pullLanes) = (stageLanes(push.run), stageLanes(pull.run))
        let differing = plan.reasons.filter { reason in
            let j = plan.pullIndex(of: reason.stage)
            guard pushLanes.indices.contains(reason.stage), pullLanes.indices.contains(j) else { return false }
            return pushLanes[reason.stage].events != pullLanes[j].events
        }
        return (differing.isEmpty ? plan.reasons : differing).map(\.text)
    }

    /// What `:compare` prints: the two texts, the events side by side, the diagram, the verdict.
    func lines(style: Style, width: Int, marbles: Bool = true) -> [String] {
        var out = [
            style.bold(plan.pushName) + "  " + plan.push,
            style.bold(plan.pullName) + "  " + plan.pull,
        ]
        let column = max(30, (rows.compactMap { $0.push?.count }.max() ?? 0) + 4)
        func pad(_ s: String) -> String { s + String(repeating: " ", count: max(1, column - s.count)) }
        out.append("  " + style.dim(pad("push") + "pull"))
        for row in rows {
            let line = pad(row.push ?? "") + (row.pull ?? "")
            out.append(row.differs ? style.yellow("≠ " + line) : "  " + line)
        }
        if marbles, let diagram {
            out.append("")
            out += MarbleText.render(diagram, width: width, color: style.enabled)
        }
        out.append("")
        return out + verdict(style: style)
    }

    /// The verdict under the listing: `same: …`, or `differs: N lines` and its `why:` lines.
    func verdict(style: Style) -> [String] {
        let count = rows.count(where: \.differs)
        if count == 0 { return [style.green("same: both runs printed the same events at the same times")] }
        var out = [style.yellow("differs: \(count) line\(count == 1 ? "" : "s") (marked ≠)")]
        let reasons = self.reasons
        if reasons.isEmpty {
            out.append("why: no stage documents a difference between its two forms")
        } else {
            for reason in reasons { out.append("why: " + reason) }
        }
        return out
    }
}

extension PipelineComparison {
    /// `plumb compare FILE`: every pipeline statement of a script compared, in order, each run
    /// after the script's `let`s before it. Returns what to print, the errors, and the exit code:
    /// 0 when every pipeline ran the same both ways, 1 when one differed, 65 for a static error or
    /// a stage with no async twin (nothing is run then).
    static func script(
        _ text: String, file: String, style: Style, width: Int, marbles: Bool
    ) -> (out: String, errors: String, code: Int32, comparisons: [PipelineComparison]) {
        let language = ScriptLines(text).language
        let (plans, errors) = plans(of: text, file: file)
        guard errors.isEmpty else {
            var text = errors.map { $0.rendered(source: language, color: false) }.joined(separator: "\n") + "\n"
            if let hint = DiagnosticID.explanationHint(for: errors.map(\.id), interactive: false) { text += hint + "\n" }
            return ("", text, ExitCode.dataError, [])
        }
        var out: [String] = []
        var code = ExitCode.success
        var comparisons: [PipelineComparison] = []
        for (statement, plan, preamble) in plans {
            let comparison = PipelineComparison(plan, preamble: preamble)
            comparisons.append(comparison)
            if comparison.differs { code = ExitCode.failure }
            if !out.isEmpty { out.append("") }
            out.append(style.dim("// \(statement.location.line): \(statement.text)"))
            out += comparison.lines(style: style, width: width, marbles: marbles)
        }
        if plans.isEmpty { out.append(style.dim("no pipeline to compare")) }
        return (out.joined(separator: "\n") + "\n", "", code, comparisons)
    }

    /// A script's pipelines and how each is compared, each with the script's `let`s before it;
    /// or the errors (a static error, a stage with no async twin: E410) that stop them all.
    /// `plumb compare FILE` and the room's Compare both read a text this way.
    static func plans(of text: String, file: String) -> (plans: [(Statement, ComparisonPlan, preamble: String)], errors: [Diagnostic]) {
        let session = Session(runtime: Runtime(clock: .virtual))
        let language = ScriptLines(text).language
        let (statements, diagnostics) = session.compile(language, file: file)
        var errors = diagnostics.filter { $0.severity == .error }
        var plans: [(Statement, ComparisonPlan, preamble: String)] = []
        if errors.isEmpty {
            var preamble = ""
            for statement in statements where !statement.isExpectation {
                if statement.isBinding {
                    preamble += statement.text + "\n"
                    _ = session.execute(statement)
                    continue
                }
                switch session.comparisonPlan(of: statement.text, file: file, firstLine: statement.location.line) {
                case .success(let plan): plans.append((statement, plan, preamble))
                // A send, finish or fail is not a pipeline: it has nothing to compare.
                case .failure(let d) where d.id.name.hasPrefix("type-needs"): break
                case .failure(let d): errors.append(d)
                }
            }
        }
        return (errors.isEmpty ? plans : [], errors)
    }
}
