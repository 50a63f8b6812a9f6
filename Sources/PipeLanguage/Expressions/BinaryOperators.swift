/// The binary operators of the closure language, one row each. Adding an operator is adding a row
/// here (and its tests): the lexer, the parser, the printer, the interpreter, the checker, the
/// static pass, the infallibility proof and the Swift translation all read this table.
extension BinaryOperator {
    static let all: [BinaryOperator] = [
        BinaryOperator(
            symbol: "+",
            summary: "the sum of two numbers, or two strings or two arrays joined",
            example: ("\"a\" + \"b\"", .string("ab")),
            level: .additive,
            kind: KindRule(accepts: { a, b in (a.isNumber && b.isNumber) || (a == .string && b == .string) || (a.isArray && b.isArray) }) { a, b in
                if a == .string && b == .string { return (.string, false) }
                if a.isArray && b.isArray { return (a.merged(b), false) }
                return BinaryRules.arithmeticKind(a, b, dividing: false)
            },
            // Int overflows, Double overflows to infinity, String and Array hit the size caps.
            infallible: { a, b, _ in (BinaryRules.arithmeticKind(a, b), false) },
            evaluate: .strict { x, y throws(Message) in
                switch (x, y) {
                case (.int(let a), .int(let b)):
                    let (v, o) = a.addingReportingOverflow(b)
                    if o { throw .arithmeticOverflow(a, "+", b) }
                    return .int(v)
                case (.string(let a), .string(let b)):
                    let size = a.utf8.count + b.utf8.count
                    if size > Limits.maxStringBytes { throw .stringTooLarge(size) }
                    return .string(a + b)
                case (.array(let a), .array(let b)):
                    if a.count + b.count > Limits.maxArrayCount { throw .arrayTooLarge(a.count + b.count) }
                    return .array(a + b)
                default:
                    guard let (a, b) = BinaryRules.doubles(x, y) else { throw .operandTypeMismatch("+", x, y) }
                    return try BinaryRules.finite(a + b, a, "+", b)
                }
            },
            onInts: IntKernels.Add.self,
            swiftPrecedence: 140,
            promotesNumbers: true,
            swift: { op in
                let (a, b) = (op.left.kind, op.right.kind)
                let joins = a == .string || a.isArray
                if !((a.isNumber || joins) && a == b) { op.mismatch() }
                return op.infix(a == b ? a : .any)
            }),
        arithmetic("-", .additive, "the difference of two numbers", ("7 - 10", .int(-3)), IntKernels.Subtract.self) { a, b in
            a.subtractingReportingOverflow(b)
        } double: { a, b in
            a - b
        },
        arithmetic("*", .multiplicative, "the product of two numbers", ("6 * 7", .int(42)), IntKernels.Multiply.self) { a, b in
            a.multipliedReportingOverflow(by: b)
        } double: { a, b in
            a * b
        },
        divide("/", "the quotient of two numbers; an Int quotient is cut toward zero", ("7 / 2", .int(3)), IntKernels.Divide.self) { a, b in
            a.dividedReportingOverflow(by: b)
        } double: { a, b in
            a / b
        },
        divide("%", "the remainder of a division, with the dividend's sign", ("7 % 3", .int(1)), IntKernels.Remainder.self) { a, b in
            a.remainderReportingOverflow(dividingBy: b)
        } double: { a, b in
            a.truncatingRemainder(dividingBy: b)
        },
        equality("==", "whether two values are equal", ("1 == 1.0", .bool(true)), IntKernels.Equal.self) { x, y in x == y },
        equality("!=", "whether two values differ", ("\"a\" != \"b\"", .bool(true)), IntKernels.NotEqual.self) { x, y in x != y },
        comparison("<", "whether the left value orders before the right", ("2 < 10", .bool(true)), IntKernels.Less.self) { $0 < 0 },
        comparison(">", "whether the left value orders after the right", ("2.5 > 2", .bool(true)), IntKernels.Greater.self) { $0 > 0 },
        comparison("<=", "whether the left value orders before the right or equals it", ("\"b\" <= \"a\"", .bool(false)), IntKernels.LessOrEqual.self) {
            $0 <= 0
        },
        comparison(">=", "whether the left value orders after the right or equals it", ("3 >= 3", .bool(true)), IntKernels.GreaterOrEqual.self) { $0 >= 0 },
        logical("&&", .and, "whether both are true; the right is not evaluated when the left is false", ("true && false", .bool(false)), decidedBy: false),
        logical("||", .or, "whether either is true; the right is not evaluated when the left is true", ("false || true", .bool(true)), decidedBy: true),
        BinaryOperator(
            symbol: "??",
            summary: "the left value, or the right one when the left is nil",
            example: ("nil ?? 3", .int(3)),
            level: .coalescing,
            kind: KindRule(accepts: { _, _ in true }) { a, b in (a == .null ? b : a.merged(b), false) },
            // A certain left side is never nil, so the result is the left side.
            infallible: { a, _, _ in (a, true) },
            evaluate: .shortCircuit(left: { x throws(Message) in if case .null = x { nil } else { x } }, right: { y throws(Message) in y }),
            onInts: nil,
            swiftPrecedence: 131,
            promotesNumbers: false,
            swift: { op in
                op.problems.append("?? needs an Optional in Swift; these values are never nil there")
                return op.infix(op.left.kind.merged(op.right.kind))
            }),
    ]

    /// `-` or `*`: Int arithmetic that fails on overflow, Double arithmetic that fails on a
    /// non-finite result.
    private static func arithmetic(
        _ symbol: String, _ level: Level, _ summary: String, _ example: (String, Value), _ onInts: any IntKernel.Type,
        int: @escaping @Sendable (Int, Int) -> (partialValue: Int, overflow: Bool),
        double: @escaping @Sendable (Double, Double) -> Double
    ) -> BinaryOperator {
        BinaryOperator(
            symbol: symbol, summary: summary, example: example, level: level,
            kind: KindRule(accepts: { a, b in a.isNumber && b.isNumber }) { a, b in BinaryRules.arithmeticKind(a, b, dividing: false) },
            // Int overflows, Double overflows to infinity.
            infallible: { a, b, _ in (BinaryRules.arithmeticKind(a, b), false) },
            evaluate: .strict { x, y throws(Message) in
                if case .int(let a) = x, case .int(let b) = y {
                    let (v, o) = int(a, b)
                    if o { throw .arithmeticOverflow(a, symbol, b) }
                    return .int(v)
                }
                guard let (a, b) = BinaryRules.doubles(x, y) else { throw .operandTypeMismatch(symbol, x, y) }
                return try BinaryRules.finite(double(a, b), a, symbol, b)
            },
            onInts: onInts,
            swiftPrecedence: level == .multiplicative ? 150 : 140,
            promotesNumbers: true,
            swift: BinaryRules.numericSwift)
    }

    /// `/` or `%`: as `arithmetic`, and a zero divisor fails.
    private static func divide(
        _ symbol: String, _ summary: String, _ example: (String, Value), _ onInts: any IntKernel.Type,
        int: @escaping @Sendable (Int, Int) -> (partialValue: Int, overflow: Bool),
        double: @escaping @Sendable (Double, Double) -> Double
    ) -> BinaryOperator {
        BinaryOperator(
            symbol: symbol, summary: summary, example: example, level: .multiplicative,
            kind: KindRule(accepts: { a, b in a.isNumber && b.isNumber }) { a, b in BinaryRules.arithmeticKind(a, b, dividing: true) },
            // Int by a literal other than 0 (division by zero) and -1 (Int.min / -1 overflows).
            infallible: { a, b, literal in
                guard a == .int, case .int(let divisor)? = literal, divisor != 0, divisor != -1 else {
                    return (a == .int && b == .int ? .int : nil, false)
                }
                return (.int, true)
            },
            evaluate: .strict { x, y throws(Message) in
                if case .int(let a) = x, case .int(let b) = y {
                    if b == 0 { throw .divisionByZero(x, symbol, y) }
                    let (v, o) = int(a, b)
                    if o { throw .arithmeticOverflow(a, symbol, b) }
                    return .int(v)
                }
                guard let (a, b) = BinaryRules.doubles(x, y) else { throw .operandTypeMismatch(symbol, x, y) }
                if b == 0 { throw .divisionByZero(x, symbol, y) }
                return try BinaryRules.finite(double(a, b), a, symbol, b)
            },
            onInts: onInts,
            swiftPrecedence: 150,
            promotesNumbers: true,
            swift: { op in
                // Swift's `%` is for integers only.
                if symbol == "%" && op.left.kind == .double {
                    let l = op.left.precedence < 1000 ? "(\(op.left.text))" : op.left.text
                    return ("\(l).truncatingRemainder(dividingBy: \(op.right.text))", .double, 1000)
                }
                return BinaryRules.numericSwift(&op)
            })
    }

    /// `==` or `!=`: any two values (an Int equals the Double of its value).
    private static func equality(
        _ symbol: String, _ summary: String, _ example: (String, Value), _ onInts: any IntKernel.Type,
        _ test: @escaping @Sendable (Value, Value) -> Bool
    ) -> BinaryOperator {
        BinaryOperator(
            symbol: symbol, summary: summary, example: example, level: .comparison,
            kind: KindRule(accepts: { _, _ in true }) { _, _ in (.bool, false) },
            infallible: { _, _, _ in (.bool, true) },
            evaluate: .strict { x, y throws(Message) in .bool(test(x, y)) },
            onInts: onInts,
            swiftPrecedence: 130,
            promotesNumbers: true,
            swift: { op in
                let (a, b) = (op.left.kind, op.right.kind)
                if a != b && a != .nothing && b != .nothing { op.mismatch() }
                return op.infix(.bool)
            })
    }

    /// `<`, `<=`, `>` or `>=`: numbers with numbers, strings with strings (`BuiltinRules.compare`).
    private static func comparison(
        _ symbol: String, _ summary: String, _ example: (String, Value), _ onInts: any IntKernel.Type,
        _ test: @escaping @Sendable (Int) -> Bool
    ) -> BinaryOperator {
        BinaryOperator(
            symbol: symbol, summary: summary, example: example, level: .comparison,
            kind: KindRule(accepts: { a, b in BuiltinRules.comparable(a, b) }) { a, b in (.bool, !BuiltinRules.comparable(a, b)) },
            infallible: { a, b, _ in (.bool, BuiltinRules.comparable(a, b)) },
            evaluate: .strict { x, y throws(Message) in .bool(test(try BuiltinRules.compare(x, y))) },
            onInts: onInts,
            swiftPrecedence: 130,
            promotesNumbers: true,
            swift: { op in
                let (a, b) = (op.left.kind, op.right.kind)
                if !(a == b && (a.isNumber || a == .string)) { op.mismatch() }
                return op.infix(.bool)
            })
    }

    /// `&&` or `||`: two Bools; the left one decides alone when it is `decidedBy`.
    private static func logical(
        _ symbol: String, _ level: Level, _ summary: String, _ example: (String, Value), decidedBy: Bool
    ) -> BinaryOperator {
        BinaryOperator(
            symbol: symbol, summary: summary, example: example, level: level,
            kind: KindRule(accepts: { a, b in a == .bool && b == .bool }) { a, b in (.bool, a != .bool || b != .bool) },
            infallible: { a, b, _ in (.bool, a == .bool && b == .bool) },
            evaluate: .shortCircuit(
                left: { x throws(Message) in
                    guard case .bool(let a) = x else { throw .logicalOperandNotBool(symbol) }
                    return a == decidedBy ? x : nil
                },
                right: { y throws(Message) in
                    guard case .bool = y else { throw .logicalOperandNotBool(symbol) }
                    return y
                }),
            onInts: nil,
            swiftPrecedence: level == .and ? 120 : 110,
            promotesNumbers: false,
            swift: { op in
                if op.left.kind != .bool || op.right.kind != .bool { op.problems.append("\(symbol) needs Bools") }
                return op.infix(.bool)
            })
    }
}

/// The rows' operations on two Ints, inlined by the interpreter (`BinaryOperator.onInts`): the
/// result, or nil where the row's evaluation decides (it throws the overflow or the zero divisor).
enum IntKernels {
    enum Add: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? {
            let (v, o) = a.addingReportingOverflow(b)
            return o ? nil : .int(v)
        }
    }
    enum Subtract: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? {
            let (v, o) = a.subtractingReportingOverflow(b)
            return o ? nil : .int(v)
        }
    }
    enum Multiply: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? {
            let (v, o) = a.multipliedReportingOverflow(by: b)
            return o ? nil : .int(v)
        }
    }
    enum Divide: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? {
            if b == 0 { return nil }
            let (v, o) = a.dividedReportingOverflow(by: b)
            return o ? nil : .int(v)
        }
    }
    enum Remainder: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? {
            if b == 0 { return nil }
            let (v, o) = a.remainderReportingOverflow(dividingBy: b)
            return o ? nil : .int(v)
        }
    }
    enum Equal: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a == b) }
    }
    enum NotEqual: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a != b) }
    }
    enum Less: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a < b) }
    }
    enum Greater: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a > b) }
    }
    enum LessOrEqual: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a <= b) }
    }
    enum GreaterOrEqual: IntKernel {
        static func apply(_ a: Int, _ b: Int) -> Value? { .bool(a >= b) }
    }
}

/// Rules several operator rows share.
enum BinaryRules {
    /// The kind of `+ - * / %` on numbers: a Double beside a number gives a Double (which fails
    /// only for `/` and `%`, on a zero divisor); two Ints an Int, which may overflow.
    static func arithmeticKind(_ a: ValueKind, _ b: ValueKind, dividing: Bool) -> (kind: ValueKind, mayFail: Bool) {
        if a == .double && b.isNumber || b == .double && a.isNumber { return (.double, dividing) }
        if a == .int && b == .int { return (.int, true) }
        return (.any, true)
    }

    /// The kind `+ - *` certainly give, for certain operand kinds.
    static func arithmeticKind(_ a: ValueKind?, _ b: ValueKind?) -> ValueKind? {
        a == .int && b == .int ? .int : BuiltinRules.isNumber(a) && BuiltinRules.isNumber(b) ? .double : nil
    }

    /// Two numbers as Doubles, when at least one is a Double and the other a number.
    static func doubles(_ x: Value, _ y: Value) -> (Double, Double)? {
        switch (x, y) {
        case (.double(let a), .double(let b)): return (a, b)
        case (.int(let a), .double(let b)): return (Double(a), b)
        case (.double(let a), .int(let b)): return (a, Double(b))
        default: return nil
        }
    }

    /// A Double result that is infinite or NaN from finite operands overflowed: it fails, as Int
    /// arithmetic does, rather than flowing on as `inf` and later `nan`.
    static func finite(_ result: Double, _ a: Double, _ op: String, _ b: Double) throws(Message) -> Value {
        guard result.isFinite else { throw .arithmeticOverflow("\(Value.double(a)) \(op) \(Value.double(b))") }
        return .double(result)
    }

    /// `- * / %` in Swift: both operands one number kind.
    @Sendable static func numericSwift(_ op: inout BinaryOperator.SwiftOperation) -> (text: String, kind: ValueKind, precedence: Int) {
        let (a, b) = (op.left.kind, op.right.kind)
        if !(a.isNumber && a == b) { op.mismatch() }
        return op.infix(a == b ? a : .any)
    }
}

extension ValueKind {
    var isArray: Bool { if case .array = self { true } else { false } }
}
