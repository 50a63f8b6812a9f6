/// Which closures cannot fail when they run, so their stage can be built over Reactive's
/// non-throwing operator (`map`, `filter`) instead of the throwing one (`tryMap`, `tryFilter`).
///
/// The rule is strict and follows `ExpressionCompiler` exactly: an expression cannot fail only if
/// every operation in it is one the interpreter never refuses for the kinds it certainly has.
/// Comparisons of numbers, `==`, `&&` over Bools, `%` and `/` of Ints by a literal other than 0
/// and -1, `String(…)`, `.count`: cannot fail. Int `+ - *` can overflow; Double arithmetic can
/// overflow to infinity (which the interpreter refuses); indexing can be out of range; a kind the
/// checker does not know (`Value`, nil) can be the wrong one. Where in doubt: it can fail.
///
/// `ExpressionKinds.infer` answers a different question (the Swift type a stage has, for `:type`
/// and `plumb swift`), so this pass keeps its own, certain, kinds.
enum Infallibility {
    /// True when evaluating `e` with `$0`, `$1` of these kinds can never throw.
    static func cannotFail(_ e: Expr, dollars: [ValueKind]) -> Bool {
        analyse(e, dollars).safe
    }

    /// True when `e` cannot fail and certainly produces a Bool: a condition that needs no check.
    static func isCertainCondition(_ e: Expr, dollars: [ValueKind]) -> Bool {
        let r = analyse(e, dollars)
        return r.safe && r.kind == .bool
    }

    /// `kind` is the kind the value certainly has, nil when not certain (`Value`, maybe nil).
    private typealias Result = (kind: ValueKind?, safe: Bool)

    private static func certain(_ k: ValueKind) -> ValueKind? {
        switch k {
        case .any, .nothing, .null: return nil
        // An array for certain; what its elements are is not tracked.
        case .array: return .array(.any)
        default: return k
        }
    }

    private static func isArray(_ k: ValueKind?) -> Bool { if case .array? = k { true } else { false } }

    private static func analyse(_ e: Expr, _ dollars: [ValueKind]) -> Result {
        switch e.kind {
        case .literal(let v):
            if case .null = v { return (nil, true) }
            return (ValueKind.of(v), true)
        case .dollar(let n):
            guard n < dollars.count else { return (nil, false) }
            return (certain(dollars[n]), true)
        case .array(let items):
            let parts = items.map { analyse($0, dollars) }
            return (.array(.any), parts.allSatisfy(\.safe))
        case .interpolated(let pieces):
            // Bounded pieces only (a number or Bool prints in at most 32 bytes): a String piece
            // could push the result past the size cap.
            var bytes = 0
            for piece in pieces {
                switch piece {
                case .text(let s): bytes += s.utf8.count
                case .expr(let x):
                    let r = analyse(x, dollars)
                    guard r.safe, r.kind == .int || r.kind == .double || r.kind == .bool else { return (.string, false) }
                    bytes += 32
                }
            }
            return (.string, bytes <= Limits.maxStringBytes)
        case .unary(let op, let x):
            let r = analyse(x, dollars)
            guard let row = UnaryOperator.named(op) else { return (nil, false) }
            let (kind, safe) = row.infallible(r.kind)
            return (kind, r.safe && safe)
        case .binary(let op, let a, let b):
            return binary(op, a, b, dollars)
        case .ternary(let c, let a, let b):
            let (rc, ra, rb) = (analyse(c, dollars), analyse(a, dollars), analyse(b, dollars))
            let kind = ra.kind == rb.kind ? ra.kind : nil
            return (kind, rc.safe && rc.kind == .bool && ra.safe && rb.safe)
        case .index:
            return (nil, false)
        case .member(let base, let name):
            let r = analyse(base, dollars)
            guard let row = MemberCall.named(name) else { return (nil, false) }
            let (kind, safe) = row.infallible(r.kind)
            return (kind, r.safe && safe)
        case .call(let name, let arguments):
            guard let function = BuiltinFunction.named(name), arguments.count == function.arity else { return (nil, false) }
            let parts = arguments.map { analyse($0, dollars) }
            guard parts.allSatisfy(\.safe) else { return (nil, false) }
            return function.infallible(parts.map(\.kind))
        case .range:
            return (.array(.int), false)
        }
    }

    private static func binary(_ op: String, _ a: Expr, _ b: Expr, _ dollars: [ValueKind]) -> Result {
        let (ra, rb) = (analyse(a, dollars), analyse(b, dollars))
        guard let row = BinaryOperator.named(op) else { return (nil, false) }
        let literal: Value? = if case .literal(let v) = b.kind { v } else { nil }
        let (kind, safe) = row.infallible(ra.kind, rb.kind, literal)
        return (kind, safe && ra.safe && rb.safe)
    }
}
