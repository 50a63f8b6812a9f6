/// One prefix operator of the closure language (`-$0`, `!$0`): everything about it in one row,
/// read by every pass that meets it, as `BinaryOperator` is for infix operators.
///
/// - The parser takes the symbols the table lists; `Printer` writes the symbol before its operand.
/// - `ExpressionCompiler` (the interpreter) looks the row up once, when it compiles the closure.
/// - `ExpressionKinds` asks `kind`; `ExpressionCheck` refuses an operand of a known kind that
///   `accepts` does not take (`impossibleUnary`); `Infallibility` asks `infallible`.
/// - `SwiftExpressions` writes it with `swift`.
///
/// The table is `UnaryOperator.all`; a test fails for a row without an example that evaluates to
/// its expected value.
struct UnaryOperator: Sendable {
    /// How the language writes it (`-`).
    let symbol: String
    /// One line for people: what it gives.
    let summary: String
    /// An expression and the value it evaluates to (`!true` is `false`), checked by a test.
    let example: (expression: String, value: Value)
    /// Whether an operand of this known kind can be given; when not, the checker refuses it.
    let accepts: @Sendable (_ operand: ValueKind) -> Bool
    /// The result kind and whether it may fail, given the operand's kind (`any` when unknown).
    let kind: @Sendable (_ operand: ValueKind) -> (kind: ValueKind, mayFail: Bool)
    /// The kind the result certainly has (nil when not certain) and whether it cannot fail,
    /// given the kind the operand certainly has (nil when not certain).
    let infallible: @Sendable (_ operand: ValueKind?) -> (kind: ValueKind?, safe: Bool)
    /// What it computes; a failure throws the `Message` (the interpreter adds the position).
    let evaluate: @Sendable (Value) throws(Message) -> Value
    /// The Swift text given the operand's text (wrapped as needed) and kind, with what Swift
    /// cannot say faithfully appended to `problems`.
    let swift: @Sendable (_ operand: String, _ kind: ValueKind, _ problems: inout [String]) -> (text: String, kind: ValueKind)
}

extension UnaryOperator {
    /// The row for `symbol`, if any.
    static func named(_ symbol: String) -> UnaryOperator? { all.first { $0.symbol == symbol } }

    /// The prefix operators, one row each. Adding one is adding a row here (and its tests).
    static let all: [UnaryOperator] = [
        UnaryOperator(
            symbol: "-",
            summary: "the negation of a number; -Int.min overflows",
            example: ("-(2 + 3)", .int(-5)),
            accepts: { k in k.isNumber },
            kind: { k in (k == .double ? .double : k == .int ? .int : .any, k != .double) },
            // -Int.min overflows; negating a Double cannot fail.
            infallible: { k in (k == .double ? .double : nil, k == .double) },
            evaluate: { v throws(Message) in
                switch v {
                case .int(let i):
                    let (r, o) = (0 as Int).subtractingReportingOverflow(i)
                    if o { throw .arithmeticOverflow("-(\(i))") }
                    return .int(r)
                case .double(let d): return .double(-d)
                default: throw .cannotNegate(v)
                }
            },
            swift: { operand, k, problems in
                if !k.isNumber { problems.append("- needs a number, not \(k.swiftName)") }
                return ("-" + operand, k)
            }),

        UnaryOperator(
            symbol: "!",
            summary: "the opposite of a Bool",
            example: ("!(1 > 2)", .bool(true)),
            accepts: { k in k == .bool },
            kind: { k in (.bool, k != .bool) },
            infallible: { k in (.bool, k == .bool) },
            evaluate: { v throws(Message) in
                guard case .bool(let b) = v else { throw .notOperandNotBool }
                return .bool(!b)
            },
            swift: { operand, k, problems in
                if k != .bool { problems.append("! needs a Bool, not \(k.swiftName)") }
                return ("!" + operand, .bool)
            }),
    ]
}
