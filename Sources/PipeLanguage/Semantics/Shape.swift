/// What the static pass knows about values: their kind, or `any`.
indirect enum ValueKind: Sendable, Hashable {
    case int, double, string, bool, null, any
    /// Emits no value at all (`empty`, `fail`, `never`): Swift's `Never`.
    case nothing
    case array(ValueKind)

    /// Swift spelling for `:type` (`Int`, `[String]`, `Value` when unknown).
    var swiftName: String {
        switch self {
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .bool: "Bool"
        case .null: "Value?"
        case .any: "Value"
        case .nothing: "Never"
        case .array(let e): "[\(e.swiftName)]"
        }
    }

    /// The kind both may have (`any` when they differ).
    func merged(_ other: ValueKind) -> ValueKind {
        if self == other { return self }
        if self == .nothing { return other }
        if other == .nothing { return self }
        if case .array(let a) = self, case .array(let b) = other { return .array(a.merged(b)) }
        return .any
    }

    /// True when no one Swift type holds both (`Int` and `String`): Combine's `append`, `merge`,
    /// `replaceError` … refuse to join such publishers. An unknown kind (`Value`), `nil` (an
    /// Optional) and `Never` join anything; Ints and Doubles meet as Double (a literal `1` is a
    /// Double in Swift where a Double is expected).
    func cannotJoin(_ other: ValueKind) -> Bool {
        switch (self, other) {
        case (.any, _), (_, .any), (.null, _), (_, .null), (.nothing, _), (_, .nothing): return false
        case (.array(let a), .array(let b)): return a.cannotJoin(b)
        default: return self != other && !(isNumber && other.isNumber)
        }
    }

    static func of(_ v: Value) -> ValueKind {
        switch v {
        case .int: .int
        case .double: .double
        case .string: .string
        case .bool: .bool
        case .null: .null
        case .array(let items): .array(common(items.map(ValueKind.of)))
        }
    }

    /// The kind every element shares, or `any`.
    static func common(_ kinds: [ValueKind]) -> ValueKind {
        guard var k = kinds.first else { return .any }
        for x in kinds.dropFirst() { k = k.merged(x) }
        return k
    }

    var isNumber: Bool { self == .int || self == .double }
}

/// Per stage: the kind of value it emits and whether it can fail.
struct Shape: Sendable, Hashable {
    var kind: ValueKind
    var canFail: Bool

    /// `AnyPublisher<Int, Never>`.
    var swiftType: String { "AnyPublisher<\(kind.swiftName), \(canFail ? "Error" : "Never")>" }
}

/// Infers the kind of a closure expression's result and whether evaluating it can fail (checked
/// arithmetic can overflow, so Int arithmetic can fail; comparisons of known kinds cannot).
enum ExpressionKinds {
    static func infer(_ e: Expr, _ args: [ValueKind]) -> (kind: ValueKind, canFail: Bool) {
        switch e.kind {
        case .literal(let v): return (ValueKind.of(v), false)
        case .dollar(let n): return (n < args.count ? args[n] : .any, n >= args.count)
        case .array(let items):
            let parts = items.map { infer($0, args) }
            let kind = ValueKind.common(parts.map(\.kind))
            return (.array(kind), parts.contains { $0.canFail })
        case .interpolated(let parts):
            let fails = parts.contains { if case .expr(let x) = $0 { infer(x, args).canFail } else { false } }
            return (.string, fails)
        case .unary(let op, let x):
            let (k, f) = infer(x, args)
            guard let row = UnaryOperator.named(op) else { return (.any, true) }
            let (kind, mayFail) = row.kind(k)
            return (kind, f || mayFail)
        case .binary(let op, let a, let b):
            let (ka, fa) = infer(a, args)
            let (kb, fb) = infer(b, args)
            guard let row = BinaryOperator.named(op) else { return (.any, true) }
            let (kind, mayFail) = row.kind.result(ka, kb)
            return (kind, fa || fb || mayFail)
        case .ternary(let c, let a, let b):
            let (kc, fc) = infer(c, args)
            let (ka, fa) = infer(a, args)
            let (kb, fb) = infer(b, args)
            return (ka.merged(kb), fc || fa || fb || kc != .bool)
        case .index(let base, _):
            let (k, _) = infer(base, args)
            if case .array(let e) = k { return (e, true) }
            return (k == .string ? .string : .any, true)
        case .member(let base, let name):
            let (k, f) = infer(base, args)
            guard let row = MemberCall.named(name) else { return (.any, true) }
            let (kind, mayFail) = row.kind(k)
            return (kind, f || mayFail)
        case .call(let name, let xs):
            let parts = xs.map { infer($0, args) }
            guard let function = BuiltinFunction.named(name), xs.count == function.arity else { return (.any, true) }
            let result = function.kind.result(parts.map(\.kind))
            return (result.kind, result.mayFail || parts.contains { $0.canFail })
        case .range: return (.array(.int), true)
        }
    }
}
