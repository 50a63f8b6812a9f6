/// What `:compare` and `plumb compare` run: one pipeline written twice, once pushed (Combine's
/// publishers) and once pulled (`AsyncSequence`s), and why the two may differ.
///
/// A pipeline without a crossing is compared with itself crossed right after its source: every
/// later stage becomes its async twin (`interval 100ms | take 3 | debounce 150ms` against
/// `interval 100ms | values | take 3 | debounce 150ms`). A pipeline that crosses compares the two
/// bridges: `stream` (a sink that asks for everything and buffers) against `values` (one element
/// per `next()`), the rest as written.
///
/// ```swift
/// let plan = try session.comparisonPlan(of: "interval 100ms | take 3 | debounce 150ms").get()
/// plan.pull     // "interval 100ms | values | take 3 | debounce 150ms"
/// plan.reasons  // ["debounce: when its base finishes, the async debounce emits …"]
/// ```
public struct ComparisonPlan: Sendable, Equatable {
    /// How the two runs are told apart.
    public enum Mode: Sendable, Equatable {
        /// Every stage a publisher, against every stage after the source an async sequence.
        case twins
        /// The pipeline's crossing as `stream` against the same crossing as `values`.
        case bridges
    }

    public var mode: Mode
    /// The pushed run's text.
    public var push: String
    /// The pulled run's text.
    public var pull: String
    /// Each stage's documented difference between its two forms, in pipeline order.
    public var reasons: [Reason]

    /// A stage's documented difference between its push and pull forms.
    public struct Reason: Sendable, Equatable {
        /// The stage's index in the pipeline as written (0 is the source).
        public var stage: Int
        /// `debounce: when its base finishes, …`.
        public var text: String
    }

    /// The index of written stage `stage` among the pulled run's stages (the inserted `values`
    /// comes after the source).
    public func pullIndex(of stage: Int) -> Int { mode == .twins && stage > 0 ? stage + 1 : stage }

    /// The pushed run's name: `Combine` or `stream`.
    public var pushName: String { mode == .twins ? "push (Combine publishers)" : "push (stream: a sink asks for everything)" }
    /// The pulled run's name: `AsyncSequence` or `values`.
    public var pullName: String { mode == .twins ? "pull (AsyncSequence twins)" : "pull (values: one element per next())" }
}

extension Session {
    /// `:compare`'s two texts for one pipeline, checked in this session (its bindings in scope).
    ///
    /// - Parameters:
    ///   - text: One pipeline.
    ///   - file: The name diagnostics show.
    ///   - firstLine: The line of the text's first line.
    /// - Returns: The plan, or the first error: a compile error, not one pipeline, or a stage with
    ///   no async twin (`E410`, at the stage).
    public func comparisonPlan(of text: String, file: String = "<compare>", firstLine: Int = 1) -> Result<ComparisonPlan, Diagnostic> {
        let (statements, diagnostics) = compile(text, file: file, firstLine: firstLine)
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .failure(error) }
        let source = SourceText(text, file: file, firstLine: firstLine)
        guard statements.count == 1, let statement = statements.first else {
            return .failure(source.diagnostic(.compareNeedsOnePipeline, at: Span(0, source.bytes.count)))
        }
        guard case .pipeline(let ast, _) = statement.ast.kind else {
            return .failure(source.diagnostic(.compareNeedsPipeline, at: statement.ast.span))
        }
        // A channel (`c | …`, `channel | …`) is an async sequence from the start: no push run.
        if let first = statement.checked?.stages.first, first.side == .async, first.entry == nil || first.entry?.isChannel == true {
            return .failure(
                source.diagnostic(
                    .asyncSourceToCompare(first.stage.name), at: first.stage.nameSpan,
                    help: "a channel is pulled by its readers; compare the stages over a subject instead (`let s = subject`, then `:compare s | …`)"))
        }
        let plan = ComparisonPlanner(source: source, stages: ast.stages).plan()
        // Each text must itself be a clean pipeline (a twin's overload may still be refused).
        if case .success(let p) = plan {
            for text in [p.push, p.pull] {
                if let error = compile(text, file: file, firstLine: firstLine).diagnostics.first(where: { $0.severity == .error }) {
                    return .failure(error)
                }
            }
        }
        return plan
    }
}

/// Writes the two texts of a plan by splicing the written stages (spans into `source`).
private struct ComparisonPlanner {
    let source: SourceText
    let stages: [Stage]

    func plan() -> Result<ComparisonPlan, Diagnostic> {
        let crossings = stages.indices.filter { Catalog.entry(named: stages[$0].name)?.isCrossing == true }
        return crossings.isEmpty ? twins() : .success(bridges(crossings))
    }

    /// The stage texts joined as written, with `replace` standing for some of them.
    private func text(replacing replace: [Int: String] = [:], after insertAfter: Int? = nil, insert: String = "") -> String {
        let bytes = source.bytes
        var out: [UInt8] = []
        var at = stages.first?.span.offset ?? 0
        out += bytes[0..<min(at, bytes.count)]
        for (i, stage) in stages.enumerated() {
            out += bytes[at..<stage.span.offset]
            out += replace[i].map { Array($0.utf8) } ?? Array(bytes[stage.span.offset..<stage.span.offset + stage.span.length])
            at = stage.span.offset + stage.span.length
            if i == insertAfter { out += Array(" | \(insert)".utf8) }
        }
        // What follows the last stage (a comment, `&`) is not part of either run.
        return String(decoding: out, as: UTF8.self)
    }

    private func twins() -> Result<ComparisonPlan, Diagnostic> {
        var reasons: [ComparisonPlan.Reason] = []
        // An async source (`timer every 100ms`) has no publisher form for the push run.
        if let source = stages.first, let entry = Catalog.entry(named: source.name), let overload = entry.async?.startsOverload,
            case .keyword(let word)? = entry.overloads[overload].first?.kind, case .word(word)? = source.arguments.first?.value
        {
            return .failure(
                self.source.diagnostic(
                    .asyncSourceToCompare("\(source.name) \(word)"), at: source.span,
                    help: "compare its publisher twin instead: `interval` ticks 0, 1, 2 … as a publisher"))
        }
        for (i, stage) in stages.enumerated().dropFirst() {
            guard let entry = Catalog.entry(named: stage.name), entry.sides.contains(.async) else {
                return .failure(
                    source.diagnostic(
                        .noTwinToCompare(stage.name), at: stage.nameSpan,
                        help:
                            ":compare runs every stage after the source as an async sequence; compare the pipeline before '\(stage.name)', or cross yourself (values … publisher) to compare the bridges"
                    ))
            }
            if let difference = entry.asyncDifference { reasons.append(.init(stage: i, text: "\(entry.name): \(difference)")) }
        }
        return .success(ComparisonPlan(mode: .twins, push: text(), pull: text(after: 0, insert: "values"), reasons: reasons))
    }

    private func bridges(_ crossings: [Int]) -> ComparisonPlan {
        var push: [Int: String] = [:]
        var pull: [Int: String] = [:]
        for i in crossings {
            switch Catalog.entry(named: stages[i].name)?.crossing {
            case .values?: push[i] = "stream"
            case .stream?: pull[i] = "values"
            default: break
            }
        }
        let reasons = crossings.map {
            ComparisonPlan.Reason(
                stage: $0,
                text:
                    "stream: its sink asks upstream for everything and the stream buffers what the consumer has not pulled yet (reference article 002); values asks for one element per next(), so a slow consumer slows the source"
            )
        }.prefix(1)
        return ComparisonPlan(mode: .bridges, push: text(replacing: push), pull: text(replacing: pull), reasons: Array(reasons))
    }
}

extension Message {
    fileprivate static let compareNeedsOnePipeline = Message(SessionCode.typeNeedsOnePipeline, ":compare takes one pipeline")
    fileprivate static let compareNeedsPipeline = Message(SessionCode.typeNeedsPipeline, ":compare takes a pipeline")
    fileprivate static func asyncSourceToCompare(_ name: String) -> Message {
        Message(SessionCode.noTwinToCompare, "'\(name)' is an async sequence with no publisher twin, so :compare cannot run it as a publisher")
    }

    fileprivate static func noTwinToCompare(_ name: String) -> Message {
        Message(SessionCode.noTwinToCompare, "'\(name)' has no async twin, so :compare cannot run it as an async sequence")
    }
}
