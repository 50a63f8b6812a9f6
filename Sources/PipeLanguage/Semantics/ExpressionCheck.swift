/// The static half of the closure interpreter's type rules: where the kinds of both operands are
/// known, an operation the interpreter would refuse at run time is refused at check time, as
/// Swift would refuse to compile it. Where a kind is unknown (a subject's values, `$0` of a
/// `scan` accumulator), the operation stays a run-time failure.
enum ExpressionCheck {
    /// The first impossible operation in `e`, given what `$0`, `$1` are, with its span.
    static func problem(in e: Expr, dollars: [ValueKind]) -> (Message, Span)? {
        switch e.kind {
        case .literal, .dollar, .range: return nil
        case .array(let items):
            return items.lazy.compactMap { problem(in: $0, dollars: dollars) }.first
        case .call(let name, let items):
            if let inner = items.lazy.compactMap({ problem(in: $0, dollars: dollars) }).first { return inner }
            guard let function = BuiltinFunction.named(name), items.count == function.arity, let accepts = function.kind.accepts else { return nil }
            let kinds = items.map { ExpressionKinds.infer($0, dollars).kind }
            guard kinds.allSatisfy(isKnown), !accepts(kinds) else { return nil }
            return (.impossibleCall(name, kinds.map(\.swiftName)), e.span)
        case .interpolated(let parts):
            return parts.lazy.compactMap { part -> (Message, Span)? in
                if case .expr(let x) = part { return problem(in: x, dollars: dollars) }
                return nil
            }.first
        case .member(let x, _), .index(let x, _):
            return problem(in: x, dollars: dollars)
        case .ternary(let c, let a, let b):
            return problem(in: c, dollars: dollars) ?? problem(in: a, dollars: dollars) ?? problem(in: b, dollars: dollars)
        case .unary(let op, let x):
            if let inner = problem(in: x, dollars: dollars) { return inner }
            let k = ExpressionKinds.infer(x, dollars).kind
            guard isKnown(k) else { return nil }
            guard let row = UnaryOperator.named(op), !row.accepts(k) else { return nil }
            return (.impossibleUnary(op, k.swiftName), e.span)
        case .binary(let op, let a, let b):
            if let inner = problem(in: a, dollars: dollars) ?? problem(in: b, dollars: dollars) { return inner }
            let ka = ExpressionKinds.infer(a, dollars).kind
            let kb = ExpressionKinds.infer(b, dollars).kind
            guard isKnown(ka), isKnown(kb), !allowed(op, ka, kb) else { return nil }
            return (.impossibleBinary(op, ka.swiftName, kb.swiftName), e.span)
        }
    }

    /// A kind the value certainly has (not `any`, not "nothing arrives", not nil).
    private static func isKnown(_ k: ValueKind) -> Bool {
        switch k {
        case .any, .nothing, .null: false
        default: true
        }
    }

    /// Whether the operator's row takes operands of these known kinds.
    private static func allowed(_ op: String, _ a: ValueKind, _ b: ValueKind) -> Bool {
        BinaryOperator.named(op)?.kind.accepts(a, b) ?? false
    }
}

extension Message {
    static func impossibleBinary(_ op: String, _ left: String, _ right: String) -> Message {
        Message(CheckerCode.impossibleOperation, "cannot apply '\(op)' to \(left) and \(right)")
    }
    static func impossibleCall(_ function: String, _ arguments: [String]) -> Message {
        Message(CheckerCode.impossibleOperation, "cannot apply '\(function)' to \(arguments.joined(separator: " and "))")
    }
    static func impossibleUnary(_ op: String, _ operand: String) -> Message {
        Message(CheckerCode.impossibleOperation, "cannot apply '\(op)' to \(operand)")
    }
}
