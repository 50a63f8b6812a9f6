/// One binary operator of the closure language (`$0 + 1`, `$0 == "a"`, `$0 ?? 0`): everything
/// about it in one row, read by every pass that meets it.
///
/// - The lexer and the parser take the symbol and its `level` (precedence and associativity);
///   `Printer` parenthesises by the level.
/// - `ExpressionCompiler` (the interpreter) looks the row up once, when it compiles the closure,
///   and keeps the row's evaluation: no symbol is looked up per value. Where both operands are
///   Ints it computes `onInts` inline, and falls back to `evaluate` where that gives nil.
/// - `ExpressionKinds` asks `kind` for the result kind; `ExpressionCheck` refuses operands whose
///   known kinds `kind.accepts` does not take (`E326 impossible-operation`).
/// - `Infallibility` asks `infallible` whether the operation can fail.
/// - `SwiftExpressions` writes it with `swift` at `swiftPrecedence`.
///
/// The table is `BinaryOperator.all` (`BinaryOperators.swift`); a test holds every row to its
/// rules over hostile values.
struct BinaryOperator: Sendable {
    /// How the language writes it (`+`).
    let symbol: String
    /// One line for people: what it gives.
    let summary: String
    /// An expression and the value it evaluates to (`7 % 3` is `1`): documentation, checked by a
    /// test.
    let example: (expression: String, value: Value)
    /// The parser's level: how tightly it binds and how a chain of it groups.
    let level: Level
    /// Operand kinds to result kind, and which known kinds the checker refuses.
    let kind: KindRule
    /// Whether the operation can fail, for the kinds its operands certainly have.
    let infallible: InfallibilityRule
    /// What it computes, on values.
    let evaluate: Evaluation
    /// What it computes on two Ints, inlined by the interpreter (no closure call, no `Message`
    /// machinery per value); nil for the operators that take no Ints. Agrees with `evaluate`
    /// wherever it gives a result (a test holds every row to that).
    let onInts: (any IntKernel.Type)?
    /// Swift's precedence for it (higher binds tighter; the language's own order matches).
    let swiftPrecedence: Int
    /// Whether Swift needs an Int operand beside a Double written `Double(…)` (Swift does not mix
    /// them; the language promotes the Int).
    let promotesNumbers: Bool
    /// How it is written in Swift against Reactive, with what Swift cannot say faithfully.
    let swift: SwiftSpelling
}

extension BinaryOperator {
    /// The parser's precedence levels, loosest first (the raw value is `Printer`'s precedence; 1 is
    /// the ternary, 6 the range `...`, 9 the unary operators).
    enum Level: Int, Sendable, CaseIterable {
        case or = 2, and = 3, comparison = 4, coalescing = 5, additive = 7, multiplicative = 8

        /// How `a op b op c` groups: left (`(a - b) - c`), right (`a ?? (b ?? c)`) or not at
        /// all (`a < b < c` is refused, `E` chained-comparison).
        var associativity: Associativity {
            switch self {
            case .comparison: .none
            case .coalescing: .right
            default: .left
            }
        }
    }

    enum Associativity: Sendable { case left, right, none }

    /// The static kind rule.
    struct KindRule: Sendable {
        /// The result kind and whether the operation itself may fail, given the operands' kinds
        /// (`any` when unknown). Whether an operand may fail is added by the caller.
        let result: @Sendable (_ left: ValueKind, _ right: ValueKind) -> (kind: ValueKind, mayFail: Bool)
        /// Whether operands of these kinds, both known (not `any`, nil or "nothing arrives"), can
        /// be given: when not, the checker refuses the operation as Swift would refuse to compile
        /// it ("cannot apply '+' to Int and String").
        let accepts: @Sendable (_ left: ValueKind, _ right: ValueKind) -> Bool

        init(
            accepts: @escaping @Sendable (_ left: ValueKind, _ right: ValueKind) -> Bool,
            _ result: @escaping @Sendable (_ left: ValueKind, _ right: ValueKind) -> (kind: ValueKind, mayFail: Bool)
        ) {
            self.result = result
            self.accepts = accepts
        }
    }

    /// Whether the operation cannot fail, given the kinds its operands certainly have (nil where
    /// not certain) and the right operand when it is a literal. Returns the kind the result
    /// certainly has and whether it is safe when both operands are (the caller adds theirs).
    /// Strict: where in doubt, it can fail.
    typealias InfallibilityRule =
        @Sendable (_ left: ValueKind?, _ right: ValueKind?, _ rightLiteral: Value?) -> (kind: ValueKind?, safe: Bool)

    /// The run-time computation. A failure throws the `Message`; the interpreter adds the
    /// operator's position.
    enum Evaluation: Sendable {
        /// Both operands are evaluated, left first.
        case strict(@Sendable (Value, Value) throws(Message) -> Value)
        /// The right operand is evaluated only when `left` gives nil for the left value; `right`
        /// then gives the result from the right value (`&&`, `||`, `??`).
        case shortCircuit(
            left: @Sendable (Value) throws(Message) -> Value?,
            right: @Sendable (Value) throws(Message) -> Value)

        /// The result for two values, evaluating the right one only when needed.
        func apply(_ x: Value, _ y: () throws -> Value) throws -> Value {
            switch self {
            case .strict(let f): return try f(x, y())
            case .shortCircuit(let decide, let right):
                if let decided = try decide(x) { return decided }
                return try right(y())
            }
        }
    }

    /// The Swift text of an operation, its kind and its precedence (1000 for a primary).
    typealias SwiftSpelling = @Sendable (_ operation: inout SwiftOperation) -> (text: String, kind: ValueKind, precedence: Int)

    /// An operation as the Swift translation sees it: its operands already translated (and
    /// promoted to Double where `promotesNumbers`). A row appends to `problems` what Swift cannot
    /// say faithfully (the translation writes a comment there).
    struct SwiftOperation {
        let symbol: String
        let precedence: Int
        let left: (text: String, kind: ValueKind, precedence: Int)
        let right: (text: String, kind: ValueKind, precedence: Int)
        var problems: [String] = []

        /// `left op right`, operands parenthesised where they bind looser (the right one also
        /// where it binds as tightly: the operators group to the left), with `kind`.
        func infix(_ kind: ValueKind) -> (text: String, kind: ValueKind, precedence: Int) {
            let l = left.precedence < precedence ? "(\(left.text))" : left.text
            let r = right.precedence <= precedence ? "(\(right.text))" : right.text
            return ("\(l) \(symbol) \(r)", kind, precedence)
        }

        /// Notes that Swift would not compile it as written (`Int + String`).
        mutating func mismatch() {
            problems.append("\(left.kind.swiftName) \(symbol) \(right.kind.swiftName)")
        }
    }
}

/// A binary operation on two Ints that the interpreter inlines (`BinaryOperator.onInts`).
protocol IntKernel: Sendable {
    /// The result, or nil where the row's own evaluation must decide (an overflow, a zero
    /// divisor: it throws the message).
    static func apply(_ a: Int, _ b: Int) -> Value?

    /// The compiled operation: `apply` inline when both operands are Ints, else `general` (the
    /// row's evaluation, failing at the operator). One specialised copy per kernel.
    static func compiled(_ lhs: Operand, _ rhs: Operand, general: @escaping @Sendable (Value, Value) throws -> Value) -> CompiledExpression
}

extension IntKernel {
    static func compiled(_ lhs: Operand, _ rhs: Operand, general: @escaping @Sendable (Value, Value) throws -> Value) -> CompiledExpression {
        // `$0 * 3`, `$0 % 2 == 0`: an Int literal on the right is read once, here.
        if case .constant(.int(let c)) = rhs {
            switch lhs {
            case .first:
                return { args in
                    if case .int(let a) = args.first, let r = apply(a, c) { return r }
                    return try general(args.first, .int(c))
                }
            case .computed(let f):
                return { args in
                    let x = try f(args)
                    if case .int(let a) = x, let r = apply(a, c) { return r }
                    return try general(x, .int(c))
                }
            default: break
            }
        }
        return { args in
            let x = try lhs.value(args)
            let y = try rhs.value(args)
            if case .int(let a) = x, case .int(let b) = y, let r = apply(a, b) { return r }
            return try general(x, y)
        }
    }
}

extension BinaryOperator {
    /// The row written `symbol`, if any.
    static func named(_ symbol: String) -> BinaryOperator? { bySymbol[symbol] }

    /// Every operator's symbol, in the table's order.
    static let symbols: [String] = all.map(\.symbol)

    /// The symbols at one parser level.
    static func symbols(at level: Level) -> Set<String> { Set(all.filter { $0.level == level }.map(\.symbol)) }

    private static let bySymbol: [String: BinaryOperator] = Dictionary(uniqueKeysWithValues: all.map { ($0.symbol, $0) })
}
