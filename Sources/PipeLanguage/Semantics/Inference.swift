/// What an entry's inference sees: the upstream shape, its matched arguments, and a way to infer
/// nested pipelines.
struct InferenceInput {
    var upstream: Shape
    var arguments: [Argument?]
    var overload: Int
    /// Infers a pipeline given the kinds of `$0`, `$1` inside it.
    var pipelineShape: (PipelineAST, [ValueKind]) -> Shape
    /// Infers a publisher argument (parenthesised pipeline, binding, or pipeline closure).
    var publisherShape: (Argument) -> Shape
}

typealias Inference = @Sendable (InferenceInput) -> Shape

/// The static rules each catalog entry uses.
enum Infer {
    static let same: Inference = { $0.upstream }
    static let anyFailing: Inference = { _ in Shape(kind: .any, canFail: true) }
    static let alwaysFails: Inference = { Shape(kind: $0.upstream.kind, canFail: true) }

    static func fixed(_ kind: ValueKind, fails: Bool) -> Inference { { _ in Shape(kind: kind, canFail: fails) } }
    static func fixedKeepFailure(_ kind: ValueKind) -> Inference { { Shape(kind: kind, canFail: $0.upstream.canFail) } }

    static func closureShape(_ input: InferenceInput, _ args: [ValueKind]) -> (kind: ValueKind, canFail: Bool)? {
        for a in input.arguments {
            if case .closure(let c)? = a?.value, case .expression(let e) = c.body { return ExpressionKinds.infer(e, args) }
        }
        return nil
    }

    static func constantKind(_ a: Argument?) -> ValueKind {
        if case .expr(let e)? = a?.value, !e.usesDollar { return ExpressionKinds.infer(e, []).kind }
        return .any
    }

    static let justValue: Inference = { Shape(kind: constantKind($0.arguments.first ?? nil), canFail: false) }

    static let fromSequence: Inference = { input in
        guard case .expr(let e)? = input.arguments.first??.value else { return Shape(kind: .any, canFail: false) }
        if case .range = e.kind { return Shape(kind: .int, canFail: false) }
        if case .array(let k) = ExpressionKinds.infer(e, []).kind { return Shape(kind: k, canFail: false) }
        return Shape(kind: .any, canFail: false)
    }

    static func argumentKind(_ i: Int) -> Inference {
        { Shape(kind: constantKind($0.arguments.count > i ? $0.arguments[i] : nil), canFail: false) }
    }

    static func innerPipeline(_ i: Int) -> Inference {
        { input in
            guard input.arguments.count > i, case .closure(let c)? = input.arguments[i]?.value, case .pipeline(let p) = c.body else {
                return Shape(kind: .any, canFail: true)
            }
            return input.pipelineShape(p, [])
        }
    }

    static func innerPipelineMerged(_ i: Int) -> Inference {
        { input in
            guard input.arguments.count > i, case .closure(let c)? = input.arguments[i]?.value, case .pipeline(let p) = c.body else {
                return Shape(kind: .any, canFail: true)
            }
            let inner = input.pipelineShape(p, [input.upstream.kind])
            return Shape(kind: inner.kind, canFail: inner.canFail || input.upstream.canFail)
        }
    }

    static let closureResult: Inference = { input in
        let r = closureShape(input, [input.upstream.kind]) ?? (.any, true)
        return Shape(kind: r.kind, canFail: input.upstream.canFail || r.canFail)
    }

    static let sameWithClosure: Inference = { input in
        let r = closureShape(input, [input.upstream.kind]) ?? (.bool, false)
        var fails = input.upstream.canFail || r.canFail
        for a in input.arguments {
            if let a, case .pipeline = a.value { fails = fails || input.publisherShape(a).canFail }
            if let a, case .word = a.value { fails = fails || input.publisherShape(a).canFail }
        }
        return Shape(kind: input.upstream.kind, canFail: fails)
    }

    static let boolWithClosure: Inference = { input in
        let r = closureShape(input, [input.upstream.kind]) ?? (.bool, false)
        return Shape(kind: .bool, canFail: input.upstream.canFail || r.canFail)
    }

    static let accumulator: Inference = { input in
        let initial = constantKind(input.arguments.first ?? nil)
        let r = closureShape(input, [initial, input.upstream.kind]) ?? (.any, true)
        return Shape(kind: initial.merged(r.kind), canFail: input.upstream.canFail || r.canFail)
    }

    static let arrayOfUpstream: Inference = { Shape(kind: .array($0.upstream.kind), canFail: $0.upstream.canFail) }

    static let replaceError: Inference = { input in
        Shape(kind: input.upstream.kind.merged(constantKind(input.arguments.first ?? nil)), canFail: false)
    }

    static let catchError: Inference = { input in
        guard case .closure(let c)? = input.arguments.first??.value, case .pipeline(let p) = c.body else {
            return Shape(kind: .any, canFail: true)
        }
        let inner = input.pipelineShape(p, [.string])
        return Shape(kind: input.upstream.kind.merged(inner.kind), canFail: inner.canFail)
    }

    static let retry: Inference = { $0.upstream }

    enum Combination { case same, pair }
    static func combined(_ how: Combination) -> Inference {
        { input in
            let other = input.arguments.first.flatMap { $0 }.map(input.publisherShape) ?? Shape(kind: .any, canFail: true)
            let kind: ValueKind = how == .same ? input.upstream.kind.merged(other.kind) : .array(input.upstream.kind.merged(other.kind))
            return Shape(kind: kind, canFail: input.upstream.canFail || other.canFail)
        }
    }

    static let asyncStep: Inference = { input in
        let args = input.arguments.compactMap { $0 }
        guard let first = args.first else { return Shape(kind: .any, canFail: true) }
        switch first.value {
        case .word("delay"):
            // The step sleeps, and a sleep throws when cancelled: asyncMap's throwing form, Failure == Error.
            if let last = args.last, case .closure(let c) = last.value, case .expression(let e) = c.body {
                return Shape(kind: ExpressionKinds.infer(e, [input.upstream.kind]).kind, canFail: true)
            }
            return Shape(kind: input.upstream.kind, canFail: true)
        case .word("flaky"), .word("fail"): return Shape(kind: input.upstream.kind, canFail: true)
        case .closure(let c):
            if case .expression(let e) = c.body {
                let r = ExpressionKinds.infer(e, [input.upstream.kind])
                return Shape(kind: r.kind, canFail: input.upstream.canFail || r.canFail)
            }
            return Shape(kind: .any, canFail: true)
        default: return Shape(kind: .any, canFail: true)
        }
    }
}
