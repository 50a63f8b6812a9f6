/// What `:type` shows, as data: each stage of one pipeline with its text, where it is, and the
/// Combine type after it, then the whole pipeline's type. The types are those of the Swift
/// `:swift` writes (`map { $0 * 10 }` is `.map`, so its `Failure` is `Never`); where there is no
/// faithful Swift form they are the static pass's own, and `noFaithfulSwiftForm` says why.
///
/// ```swift
/// let types = try session.types(of: "just 1 | map { $0 == 1 }").get()
/// types.stages.map(\.text)            // ["just 1", "map { $0 == 1 }"]
/// types.stages[1].type.output         // "Bool"
/// types.type.description              // "AnyPublisher<Bool, Never>"
/// ```
public struct PipelineTypes: Sendable, Hashable {
    /// One stage.
    public struct Stage: Sendable, Hashable {
        /// The stage as written: name and arguments.
        public var text: String
        /// Where it is in the text given to `types(of:)` (or to `compile`, for an outline).
        public var range: SourceRange
        /// The publisher's type after this stage.
        public var type: PublisherType
        /// The language fails the pipeline here where this Swift traps (an Int overflow, a
        /// division by zero): the static pass says the stage can fail and the Swift says `Never`.
        public var failsWhereSwiftTraps: Bool
    }

    /// The top-level stages in order, without the terminal (`sink`, `values`: it consumes the
    /// publisher); nested pipelines are inside their stage's text.
    public var stages: [Stage]
    /// The whole pipeline's type: the last stage's.
    public var type: PublisherType
    /// Why the pipeline has no faithful Swift form (the first reason), or nil when it has one.
    /// When set, the types are the static pass's.
    public var noFaithfulSwiftForm: String?

    /// The stages where the language fails and the Swift would trap.
    public var trappingStages: [Stage] { stages.filter(\.failsWhereSwiftTraps) }
}

extension PipelineTypes {
    /// The types of one checked statement's pipeline; nil for a statement without one (a send).
    ///
    /// - Parameters:
    ///   - statement: A statement `compile` returned.
    ///   - bindings: The bindings in scope, as the checker saw them (their Swift types are read
    ///     from their shapes).
    init?(_ statement: Statement, bindings: [String: BindingInfo]) {
        guard let checked = statement.checked else { return nil }
        let source = statement.source
        let translator = SwiftTranslator(source: source)
        // Only the bindings the pipeline names: the scope of a document's last statement holds
        // every `let` before it, and taking them all made an outline of n `let`s cost n².
        for name in Set(checked.bindingReferences.map(\.name)) {
            guard let info = bindings[name] else { continue }
            translator.bindings[name] = (name, info.shape.kind, info.shape.canFail, nil)
            translator.reserve(name)
        }
        translator.recordsStages = true
        let problems = translator.statement(statement.ast, checked: checked, program: false).problems
        // Without a faithful Swift form there is no Swift type to show: the static pass's types.
        let codes = problems.isEmpty ? translator.stageCodes : []
        var last = PublisherType(checked.shape)
        var stages: [Stage] = []
        for (i, stage) in checked.stages.enumerated() {
            // A terminal consumes the publisher: it keeps its upstream's types.
            if i < codes.count, stage.entry.map({ if case .terminal = $0.build { false } else { true } }) ?? true {
                last = PublisherType(output: codes[i].outputType, canFail: codes[i].fails)
            } else if codes.isEmpty {
                last = PublisherType(stage.shape)
            }
            // An async stage: the static pass's types, with the async sequence's type name.
            if stage.side == .async, let entry = stage.entry {
                last = PublisherType(stage.shape)
                last.asyncSequence = entry.asyncSequenceType(canFail: stage.shape.canFail)
            } else if stage.side == .async {
                // A channel binding (`c | …`): the async sequence is the channel itself.
                last = PublisherType(stage.shape)
                last.asyncSequence = "AsyncChannel"
            } else if stage.entry?.crossing == .publisher {
                last = PublisherType(stage.shape)
            }
            let traps = stage.shape.canFail && !last.canFail && !(i > 0 && checked.stages[i - 1].shape.canFail)
            stages.append(
                Stage(text: source.text(stage.stage.span), range: source.range(stage.stage.span), type: last, failsWhereSwiftTraps: traps))
        }
        self.init(stages: stages, type: last, noFaithfulSwiftForm: problems.first)
    }
}

extension Session {
    /// `:type`: one pipeline's stages with the Combine type after each, and the whole type, in
    /// Swift spelling (`AnyPublisher<Int, Never>`); the session's bindings are in scope.
    ///
    /// - Parameter text: One pipeline (or `let`).
    /// - Returns: The types, or the first error (a compile error, or not one pipeline).
    public func types(of text: String) -> Result<PipelineTypes, Diagnostic> {
        let (statements, diagnostics) = compile(text, file: "<type>")
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .failure(error) }
        let source = SourceText(text, file: "<type>")
        guard statements.count == 1, let statement = statements.first else {
            return .failure(source.diagnostic(.typeNeedsOnePipeline, at: Span(0, source.bytes.count)))
        }
        guard let types = PipelineTypes(statement, bindings: bindings.mapValues(\.info)) else {
            return .failure(source.diagnostic(.typeNeedsPipeline, at: statement.ast.span))
        }
        return .success(types)
    }
}
