/// Closure expressions of the language as Swift expressions, typed by the static pass's kinds.
///
/// Int arithmetic is written with Swift's own operators: where the language fails the pipeline on
/// an overflow or a division by zero, Swift traps. What Swift cannot say for the kinds known (a
/// value of mixed kinds, `??` on a non-optional, an Int parsed from a String) is reported as a
/// problem, and the caller writes a "no faithful Swift form" comment at that spot.
///
/// ```swift
/// var x = SwiftExpressions(names: ["$0"], kinds: [.int])
/// x.translate(expr).text   // "$0 % 2 == 0" for `$0 % 2 == 0`
/// ```
struct SwiftExpressions {
    /// How `$0`, `$1` are written (`$0`, or a closure parameter's name such as `value`).
    var names: [String]
    /// What `$0`, `$1` hold.
    var kinds: [ValueKind]
    /// Why the translation is not faithful, when it is not.
    var problems: [String] = []
    /// `nil` may be a ternary's branch (`compactMap`'s closure returns an Optional).
    var allowsNil = false

    /// The Swift text of `e` and the kind of its value.
    mutating func translate(_ e: Expr) -> (text: String, kind: ValueKind) {
        let (text, kind, _) = expression(e)
        return (text, kind)
    }

    /// Text, kind and precedence (higher binds tighter; 1000 for a primary expression).
    private mutating func expression(_ e: Expr) -> (String, ValueKind, Int) {
        switch e.kind {
        case .literal(let v):
            if v == .null && !allowsNil { problems.append("nil has no type of its own in Swift") }
            return (Self.literal(v), ValueKind.of(v), v.isNegativeNumber ? 140 : 1000)
        case .dollar(let n):
            guard n < names.count else {
                problems.append("$\(n) is not defined here")
                return ("$\(n)", .any, 1000)
            }
            let kind = n < kinds.count ? kinds[n] : .any
            return (names[n], kind, 1000)
        case .array(let items):
            let parts = items.map { translate($0) }
            let kind = ValueKind.common(parts.map(\.kind))
            if items.isEmpty { problems.append("an empty array literal has no element type") }
            return ("[" + parts.map(\.text).joined(separator: ", ") + "]", .array(kind), 1000)
        case .interpolated(let pieces):
            var out = "\""
            for piece in pieces {
                switch piece {
                case .text(let s): out += String(Value.quote(s).dropFirst().dropLast())
                case .expr(let inner): out += "\\(" + translate(inner).text + ")"
                }
            }
            return (out + "\"", .string, 1000)
        case .unary(let op, let operand):
            let (text, kind, prec) = expression(operand)
            let wrapped = prec < 1000 ? "(\(text))" : text
            guard let row = UnaryOperator.named(op) else {
                problems.append("Swift has no prefix \(op)")
                return (op + wrapped, .any, 900)
            }
            let (swift, result) = row.swift(wrapped, kind, &problems)
            return (swift, result, 900)
        case .binary(let op, let lhs, let rhs):
            return binary(op, lhs, rhs)
        case .ternary(let c, let a, let b):
            let (tc, kc, pc) = expression(c)
            let (ta, ka, pa) = expression(a)
            let (tb, kb, pb) = expression(b)
            if kc != .bool { problems.append("a condition must be a Bool, not \(kc.swiftName)") }
            let kind = allowsNil && ka == .null ? kb : allowsNil && kb == .null ? ka : ka.merged(kb)
            if kind == .any { problems.append("the branches are \(ka.swiftName) and \(kb.swiftName)") }
            return ("\(pc <= 100 ? "(\(tc))" : tc) ? \(pa <= 100 ? "(\(ta))" : ta) : \(pb < 100 ? "(\(tb))" : tb)", kind, 100)
        case .index(let base, let index):
            let (tb, kb, pb) = expression(base)
            let ti = translate(index).text
            let wrapped = pb < 1000 ? "(\(tb))" : tb
            if case .array(let element) = kb { return ("\(wrapped)[\(ti)]", element, 1000) }
            if kb == .string { return ("String(Array(\(tb))[\(ti)])", .string, 1000) }
            problems.append("\(kb.swiftName) cannot be indexed")
            return ("\(wrapped)[\(ti)]", .any, 1000)
        case .member(let base, let name):
            let (tb, kb, pb) = expression(base)
            let wrapped = pb < 1000 ? "(\(tb))" : tb
            if let (swift, kind) = MemberCall.named(name)?.swift(wrapped, kb, &problems) { return (swift, kind, 1000) }
            problems.append("\(kb.swiftName) has no .\(name)")
            return ("\(wrapped).\(name)", .any, 1000)
        case .call(let name, let arguments):
            var call = BuiltinFunction.SwiftCall(name: name, arguments: arguments.map { translate($0) })
            guard let function = BuiltinFunction.named(name) else {
                problems.append("no function \(name)")
                return ("\(name)(\(call.texts))", .any, 1000)
            }
            guard arguments.count == function.arity else {
                problems.append("\(name) takes \(function.arity), not \(arguments.count)")
                return ("\(name)(\(call.texts))", .any, 1000)
            }
            let (text, kind) = function.swift(&call)
            problems += call.problems
            return (text, kind, 1000)
        case .range(let lo, let hi):
            return ("Array(\(translate(lo).text)...\(translate(hi).text))", .array(.int), 1000)
        }
    }

    private mutating func binary(_ op: String, _ lhs: Expr, _ rhs: Expr) -> (String, ValueKind, Int) {
        var (ta, ka, pa) = expression(lhs)
        var (tb, kb, pb) = expression(rhs)
        guard let row = BinaryOperator.named(op) else {
            problems.append("no operator \(op)")
            return ("\(ta) \(op) \(tb)", .any, 100)
        }
        // Swift does not mix Int and Double: the language promotes the Int.
        if row.promotesNumbers {
            if ka == .int && kb == .double { (ta, ka, pa) = ("Double(\(ta))", .double, 1000) }
            if ka == .double && kb == .int { (tb, kb, pb) = ("Double(\(tb))", .double, 1000) }
        }
        var operation = BinaryOperator.SwiftOperation(
            symbol: op, precedence: row.swiftPrecedence, left: (ta, ka, pa), right: (tb, kb, pb))
        let (text, kind, precedence) = row.swift(&operation)
        problems += operation.problems
        return (text, kind, precedence)
    }

    /// A literal as Swift writes it: `1`, `2.5`, `"a!"`, `true`, `[1, 2]`, `nil`.
    static func literal(_ v: Value) -> String {
        switch v {
        case .int(let i): String(i)
        case .double(let d): "\(d)"
        case .string(let s): Value.quote(s)
        case .bool(let b): b ? "true" : "false"
        case .array(let items): "[" + items.map(literal).joined(separator: ", ") + "]"
        case .null: "nil"
        }
    }
}

extension Value {
    fileprivate var isNegativeNumber: Bool {
        switch self {
        case .int(let i): i < 0
        case .double(let d): d < 0
        default: false
        }
    }
}
