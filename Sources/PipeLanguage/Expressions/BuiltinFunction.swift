/// One built-in function of the closure language (`abs($0)`, `min($0, 10)`): everything about it
/// in one row, read by every pass that meets a call.
///
/// - `ExpressionCompiler` (the interpreter) looks the row up once, when it compiles the closure,
///   and keeps the row's `evaluate` closure: no name is looked up per value.
/// - `ExpressionKinds` (the static pass, `:type`, the Swift types) asks `kind` for the result kind.
/// - `ExpressionCheck` (the checker) refuses a call whose known argument kinds `kind` does not
///   accept, as Swift would refuse to compile it.
/// - `Infallibility` asks `infallible` whether the call can fail for the kinds it certainly has.
/// - `SwiftExpressions` (`:swift`, `plumb swift`) writes the call with `swift`.
///
/// The table is `BuiltinFunction.all` (`BuiltinFunctions.swift`); a test fails for a row without
/// an example that evaluates to its expected value.
struct BuiltinFunction: Sendable {
    /// What the language calls it (`abs`).
    let name: String
    /// One line for people: what it gives.
    let summary: String
    /// A call and the value it evaluates to (`abs(-3)` is `3`): documentation, checked by a test.
    let example: (call: String, value: Value)
    /// Argument kinds to result kind, and which known kinds it refuses before the run.
    let kind: KindRule
    /// Whether the call can fail, for the kinds its arguments certainly have.
    let infallible: InfallibilityRule
    /// What the call computes, on values; its arity is the evaluation's.
    let evaluate: Evaluation
    /// How the call is written in Swift against Reactive, with what Swift cannot say faithfully.
    let swift: SwiftSpelling

    /// How many arguments it takes.
    var arity: Int { evaluate.arity }
}

extension BuiltinFunction {
    /// The static kind rule.
    struct KindRule: Sendable {
        /// The result kind and whether the call may fail, given each argument's kind (exactly
        /// `arity` of them; `any` when unknown). Whether an argument itself may fail is added by
        /// the caller.
        let result: @Sendable (_ arguments: [ValueKind]) -> (kind: ValueKind, mayFail: Bool)
        /// Whether arguments of these kinds, all known (not `any` or nil), can be given: when not,
        /// the checker refuses the call (`E306 impossible-operation`, "cannot apply 'floor' to
        /// String"). Nil: every kind is taken, and a wrong one fails at run time.
        let accepts: (@Sendable (_ arguments: [ValueKind]) -> Bool)?

        init(
            accepts: (@Sendable (_ arguments: [ValueKind]) -> Bool)? = nil,
            _ result: @escaping @Sendable (_ arguments: [ValueKind]) -> (kind: ValueKind, mayFail: Bool)
        ) {
            self.result = result
            self.accepts = accepts
        }
    }

    /// Whether a call cannot fail, given the kinds its arguments certainly have (nil where not
    /// certain: `Value`, maybe nil; an array's element kind is never certain). Returns the kind
    /// the result certainly has (nil when not certain) and whether it is safe. Strict: where in
    /// doubt, it can fail, because a stage proved safe is built over a non-throwing operator.
    typealias InfallibilityRule = @Sendable (_ arguments: [ValueKind?]) -> (kind: ValueKind?, safe: Bool)

    /// The run-time computation, by arity. A failure throws the `Message` (the interpreter adds
    /// the call's position).
    enum Evaluation: Sendable {
        case one(@Sendable (Value) throws(Message) -> Value)
        case two(@Sendable (Value, Value) throws(Message) -> Value)

        var arity: Int {
            switch self {
            case .one: 1
            case .two: 2
            }
        }
    }

    /// The Swift text of a call, given its arguments' Swift texts and kinds.
    typealias SwiftSpelling = @Sendable (_ call: inout SwiftCall) -> (text: String, kind: ValueKind)

    /// A call as the Swift translation sees it: its arguments already translated. A row appends
    /// to `problems` what Swift cannot say faithfully (the translation writes a comment there).
    struct SwiftCall {
        let name: String
        let arguments: [(text: String, kind: ValueKind)]
        var problems: [String] = []

        /// The arguments' texts, comma separated (`$0, 2`).
        var texts: String { arguments.map(\.text).joined(separator: ", ") }
        /// The first argument's kind.
        var first: ValueKind { arguments.first?.kind ?? .any }
    }
}

extension BuiltinFunction {
    /// The row called `name`, if any.
    static func named(_ name: String) -> BuiltinFunction? { byName[name] }

    /// Every function's name, in the table's order.
    static let names: [String] = all.map(\.name)

    private static let byName: [String: BuiltinFunction] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

/// A language message thrown by a built-in function's evaluation; the interpreter turns it into
/// a `PipelineError` at the call's position.
extension Message: Error {}

/// Rules several rows share.
enum BuiltinRules {
    static func isNumber(_ k: ValueKind?) -> Bool { k == .int || k == .double }

    /// Numbers compare with numbers, strings with strings (certain kinds).
    static func comparable(_ a: ValueKind?, _ b: ValueKind?) -> Bool {
        (isNumber(a) && isNumber(b)) || (a == .string && b == .string)
    }

    /// -1, 0 or 1; numbers compare with numbers, strings with strings, anything else fails
    /// (`uncomparableValues`). `<`, `min` and `max` share it.
    @inline(__always)
    static func compare(_ x: Value, _ y: Value) throws(Message) -> Int {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (b < a ? 1 : 0) }
        switch (x, y) {
        case (.int(let a), .int(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return order(a, b)
        case (.int(let a), .double(let b)): return order(Double(a), b)
        case (.double(let a), .int(let b)): return order(a, Double(b))
        case (.string(let a), .string(let b)): return order(a, b)
        default: throw .uncomparableValues(x, y)
        }
    }
}
