/// What an entry's inference sees: the upstream shape, its matched arguments, and the checked
/// publishers among them (read from the checked tree, never checked again).
struct InferenceInput {
    var upstream: Shape
    var arguments: [Argument?]
    var overload: Int
    /// Checked publisher arguments by parameter index.
    var nested: [Int: NestedPublisher]
    /// What `$0`, `$1` are where the stage is written (inside `flatMap { … }`: the upstream value).
    var dollars: [ValueKind] = []

    /// The shape of the publisher argument at `i`: unknown and failing when there is none.
    func nestedShape(_ i: Int) -> Shape { nested[i]?.shape ?? Shape(kind: .any, canFail: true) }

    /// Whether any publisher argument can fail.
    var nestedCanFail: Bool { nested.values.contains { $0.shape.canFail } }

    /// The first expression closure's result kind and whether it can fail, given `$0`, `$1`.
    func closureShape(_ dollars: [ValueKind]) -> (kind: ValueKind, canFail: Bool)? {
        for a in arguments {
            if case .closure(let c)? = a?.value, case .expression(let e) = c.body { return ExpressionKinds.infer(e, dollars) }
        }
        return nil
    }

    /// The kind of what the argument at `i` adds to upstream's values: a publisher's values, or a
    /// constant's kind (`append 3`, `append (just 3)`).
    func joinedKind(_ i: Int) -> ValueKind { nested[i].map(\.shape.kind) ?? constantKind(i) }

    /// The string literal at `i`, when it is one.
    func stringConstant(_ i: Int) -> String? {
        guard i < arguments.count, case .expr(let e)? = arguments[i]?.value, case .literal(.string(let s)) = e.kind else { return nil }
        return s
    }

    /// The kind of the value argument at `i`, given what `$0` is in scope (`any` when missing).
    func constantKind(_ i: Int) -> ValueKind {
        guard i < arguments.count, case .expr(let e)? = arguments[i]?.value else { return .any }
        return ExpressionKinds.infer(e, dollars).kind
    }
}

typealias Inference = @Sendable (InferenceInput) -> Shape

/// The static rules entries share; a rule only one entry uses lives with that entry.
enum Infer {
    static let same: Inference = { $0.upstream }
    static let anyFailing: Inference = { _ in Shape(kind: .any, canFail: true) }

    static func fixed(_ kind: ValueKind, fails: Bool) -> Inference { { _ in Shape(kind: kind, canFail: fails) } }
    static func fixedKeepFailure(_ kind: ValueKind) -> Inference { { Shape(kind: kind, canFail: $0.upstream.canFail) } }

    /// The kind of the constant argument at `i`; never fails.
    static func argumentKind(_ i: Int) -> Inference { { Shape(kind: $0.constantKind(i), canFail: false) } }

    /// The nested pipeline's shape (`deferred { … }`).
    static func nestedPipeline(_ i: Int) -> Inference { { $0.nestedShape(i) } }

    /// Each value becomes the nested pipeline's values (`flatMap`, `switchToLatest`).
    static func nestedPipelineMerged(_ i: Int) -> Inference {
        { input in
            let inner = input.nestedShape(i)
            return Shape(kind: inner.kind, canFail: inner.canFail || input.upstream.canFail)
        }
    }

    static let closureResult: Inference = { input in
        let r = input.closureShape([input.upstream.kind]) ?? (.any, true)
        return Shape(kind: r.kind, canFail: input.upstream.canFail || r.canFail)
    }

    /// Same values as upstream; fails when upstream, its closure or a publisher argument can.
    static let sameWithClosure: Inference = { input in
        let r = input.closureShape([input.upstream.kind]) ?? (.bool, false)
        return Shape(kind: input.upstream.kind, canFail: input.upstream.canFail || r.canFail || input.nestedCanFail)
    }

    static let boolWithClosure: Inference = { input in
        let r = input.closureShape([input.upstream.kind]) ?? (.bool, false)
        return Shape(kind: .bool, canFail: input.upstream.canFail || r.canFail)
    }

    /// `scan`/`reduce`: the initial value's kind merged with the closure's result.
    static let accumulator: Inference = { input in
        let initial = input.constantKind(0)
        let r = input.closureShape([initial, input.upstream.kind]) ?? (.any, true)
        return Shape(kind: initial.merged(r.kind), canFail: input.upstream.canFail || r.canFail)
    }

    /// Upstream's values and the argument at `i`'s (a value or a publisher) in one output
    /// (`append`, `prepend`, `replaceEmpty`): the kind both may have; fails when either can.
    static func joined(_ i: Int) -> Inference {
        { input in
            Shape(kind: input.upstream.kind.merged(input.joinedKind(i)), canFail: input.upstream.canFail || input.nestedCanFail)
        }
    }

    static let arrayOfUpstream: Inference = { Shape(kind: .array($0.upstream.kind), canFail: $0.upstream.canFail) }

    /// Upstream and a publisher argument combined: their values interleaved, or paired.
    enum Combination { case same, pair }
    static func combined(_ how: Combination) -> Inference {
        { input in
            let other = input.nestedShape(0)
            let kind: ValueKind = how == .same ? input.upstream.kind.merged(other.kind) : .array(input.upstream.kind.merged(other.kind))
            return Shape(kind: kind, canFail: input.upstream.canFail || other.canFail)
        }
    }
}
