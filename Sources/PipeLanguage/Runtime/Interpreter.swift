/// The arguments a closure is called with (`$0`, `$1`). Two slots cover every operator.
struct ClosureArguments: Sendable {
    var first: Value
    var second: Value
    init(_ first: Value, _ second: Value = .null) {
        self.first = first
        self.second = second
    }
    static let none = ClosureArguments(.null)
}

/// A closure expression compiled to nested Swift closures, evaluated with checked arithmetic:
/// overflow, division by zero, bad conversions and type mismatches throw a `PipelineError` that
/// names the failing expression's position, and never trap.
typealias CompiledExpression = @Sendable (ClosureArguments) throws -> Value

/// An operand of an operator: `$0`, `$1` and literals are read in place, so `$0 % 2 == 0` makes
/// one closure call per operator rather than one per node.
enum Operand: Sendable {
    case first, second
    case constant(Value)
    case computed(CompiledExpression)

    @inline(__always)
    func value(_ args: ClosureArguments) throws -> Value {
        switch self {
        case .first: args.first
        case .second: args.second
        case .constant(let v): v
        case .computed(let f): try f(args)
        }
    }
}

/// Largest array a range in a closure may build (`from 1...N` streams lazily and has no cap).
let maxRangeArray = Limits.maxArrayCount

struct ExpressionCompiler {
    let source: SourceText

    func error(_ message: Message, _ span: Span) -> PipelineError {
        PipelineError(message, location: source.location(of: span.offset))
    }

    func compile(_ e: Expr) -> CompiledExpression {
        let span = e.span
        switch e.kind {
        case .literal(let v):
            return { _ in v }
        case .dollar(let n):
            if n == 0 { return { $0.first } }
            if n == 1 { return { $0.second } }
            let err = error(.closureArgumentUnavailable(n), span)
            return { _ in throw err }
        case .array(let items):
            let parts = items.map(compile)
            return { args in .array(try parts.map { try $0(args) }) }
        case .interpolated(let pieces):
            let loc = self
            let parts: [CompiledExpression] = pieces.map { piece in
                switch piece {
                case .text(let s): let v = Value.string(s); return { _ in v }
                case .expr(let inner): return compile(inner)
                }
            }
            return { args in
                var s = ""
                for part in parts {
                    s += try part(args).plainText
                    if s.utf8.count > Limits.maxStringBytes { throw loc.error(.stringTooLarge(s.utf8.count), span) }
                }
                return .string(s)
            }
        case .unary(let op, let operand):
            let x = compile(operand)
            let loc = self
            if op == "!" {
                return { args in
                    guard case .bool(let b) = try x(args) else { throw loc.error(.notOperandNotBool, span) }
                    return .bool(!b)
                }
            }
            return { args in
                switch try x(args) {
                case .int(let i):
                    let (r, o) = (0 as Int).subtractingReportingOverflow(i)
                    if o { throw loc.error(.arithmeticOverflow("-(\(i))"), span) }
                    return .int(r)
                case .double(let d): return .double(-d)
                case let v: throw loc.error(.cannotNegate(v), span)
                }
            }
        case .binary(let op, let lhs, let rhs):
            return compileBinary(op, operand(lhs), operand(rhs), span)
        case .ternary(let c, let a, let b):
            let (cc, ca, cb) = (compile(c), compile(a), compile(b))
            let err = error(.conditionNotBool, c.span)
            return { args in
                guard case .bool(let t) = try cc(args) else { throw err }
                return try t ? ca(args) : cb(args)
            }
        case .index(let base, let index):
            let (cb, ci) = (compile(base), compile(index))
            let loc = self
            return { args in
                let b = try cb(args)
                let i = try ci(args)
                guard case .int(let n) = i else { throw loc.error(.indexNotInt(i), span) }
                switch b {
                case .array(let a):
                    guard n >= 0, n < a.count else { throw loc.error(.indexOutOfRange(n, count: a.count), span) }
                    return a[n]
                case .string(let s):
                    let chars = Array(s)
                    guard n >= 0, n < chars.count else { throw loc.error(.indexOutOfRange(n, count: chars.count), span) }
                    return .string(String(chars[n]))
                default: throw loc.error(.notIndexable(b), span)
                }
            }
        case .member(let base, let name):
            let cb = compile(base)
            let loc = self
            return { args in
                let b = try cb(args)
                switch (b, name) {
                case (.array(let a), "count"): return .int(a.count)
                case (.string(let s), "count"): return .int(s.count)
                case (.array(let a), "isEmpty"): return .bool(a.isEmpty)
                case (.string(let s), "isEmpty"): return .bool(s.isEmpty)
                case (.array(let a), "first"): return a.first ?? .null
                case (.array(let a), "last"): return a.last ?? .null
                case (.string(let s), "uppercased"): return .string(s.uppercased())
                case (.string(let s), "lowercased"): return .string(s.lowercased())
                default: throw loc.error(.unknownMember(name, of: b), span)
                }
            }
        case .call(let name, let arguments):
            return compileCall(name, arguments, span)
        case .range(let lo, let hi):
            let (cl, ch) = (compile(lo), compile(hi))
            let loc = self
            return { args in
                guard case .int(let a) = try cl(args), case .int(let b) = try ch(args) else {
                    throw loc.error(.rangeBoundsNotInt, span)
                }
                if let problem = Ranges.problem(a, b, atRunTime: true) { throw loc.error(problem, span) }
                let (width, o) = b.subtractingReportingOverflow(a)
                guard !o, width < maxRangeArray else { throw loc.error(.rangeTooLarge(a, b), span) }
                return .array((a...b).map(Value.int))
            }
        }
    }

    /// `e` as an operand: in place when it is `$0`, `$1` or a literal.
    func operand(_ e: Expr) -> Operand {
        switch e.kind {
        case .dollar(0): .first
        case .dollar(1): .second
        case .literal(let v): .constant(v)
        default: .computed(compile(e))
        }
    }

    /// A call to a built-in function: its row is looked up here, once, and the compiled closure
    /// keeps the row's evaluation.
    private func compileCall(_ name: String, _ arguments: [Expr], _ span: Span) -> CompiledExpression {
        let loc = self
        guard let function = BuiltinFunction.named(name) else {
            let err = error(.unknownFunction(name), span)
            return { _ in throw err }
        }
        guard arguments.count == function.arity else {
            let err = error(.wrongArgumentCount(name, expected: function.arity, got: arguments.count), span)
            return { _ in throw err }
        }
        switch function.evaluate {
        case .one(let f):
            let x = operand(arguments[0])
            return { args in
                let v = try x.value(args)
                do throws(Message) { return try f(v) } catch { throw loc.error(error, span) }
            }
        case .two(let f):
            let (x, y) = (operand(arguments[0]), operand(arguments[1]))
            return { args in
                let v = try x.value(args)
                let w = try y.value(args)
                do throws(Message) { return try f(v, w) } catch { throw loc.error(error, span) }
            }
        }
    }

    static func less(_ x: Value, _ y: Value, _ loc: ExpressionCompiler, _ span: Span) throws -> Bool {
        try compare(x, y, loc, span) < 0
    }

    /// `BuiltinRules.compare`, failing at `span`.
    @inline(__always)
    static func compare(_ x: Value, _ y: Value, _ loc: ExpressionCompiler, _ span: Span) throws -> Int {
        do throws(Message) { return try BuiltinRules.compare(x, y) } catch { throw loc.error(error, span) }
    }

    private func compileBinary(_ op: String, _ lhs: Operand, _ rhs: Operand, _ span: Span) -> CompiledExpression {
        @Sendable @inline(__always) func l(_ args: ClosureArguments) throws -> Value { try lhs.value(args) }
        @Sendable @inline(__always) func r(_ args: ClosureArguments) throws -> Value { try rhs.value(args) }
        let loc = self
        @Sendable func mismatch(_ x: Value, _ y: Value) -> PipelineError {
            loc.error(.operandTypeMismatch(op, x, y), span)
        }
        /// A Double result that is infinite or NaN from finite operands overflowed: it fails, as
        /// Int arithmetic does, rather than flowing on as `inf` and later `nan`.
        @Sendable func finite(_ result: Double, _ a: Double, _ b: Double) throws -> Value {
            guard result.isFinite else { throw loc.error(.arithmeticOverflow("\(Value.double(a)) \(op) \(Value.double(b))"), span) }
            return .double(result)
        }
        @Sendable func overflow(_ a: Int, _ b: Int) -> PipelineError {
            loc.error(.arithmeticOverflow(a, op, b), span)
        }
        switch op {
        case "&&", "||":
            let isAnd = op == "&&"
            return { args in
                guard case .bool(let a) = try l(args) else { throw loc.error(.logicalOperandNotBool(op), span) }
                if isAnd ? !a : a { return .bool(a) }
                guard case .bool(let b) = try r(args) else { throw loc.error(.logicalOperandNotBool(op), span) }
                return .bool(b)
            }
        case "??":
            return { args in
                let a = try l(args)
                if case .null = a { return try r(args) }
                return a
            }
        case "==": return { args in .bool(try l(args) == r(args)) }
        case "!=": return { args in .bool(try l(args) != r(args)) }
        case "<": return { args in .bool(try Self.compare(l(args), r(args), loc, span) < 0) }
        case ">": return { args in .bool(try Self.compare(l(args), r(args), loc, span) > 0) }
        case "<=": return { args in .bool(try Self.compare(l(args), r(args), loc, span) <= 0) }
        case ">=": return { args in .bool(try Self.compare(l(args), r(args), loc, span) >= 0) }
        case "+":
            return { args in
                let x = try l(args)
                let y = try r(args)
                switch (x, y) {
                case (.int(let a), .int(let b)):
                    let (v, o) = a.addingReportingOverflow(b)
                    if o { throw overflow(a, b) }
                    return .int(v)
                case (.string(let a), .string(let b)):
                    let size = a.utf8.count + b.utf8.count
                    if size > Limits.maxStringBytes { throw loc.error(.stringTooLarge(size), span) }
                    return .string(a + b)
                case (.array(let a), .array(let b)):
                    if a.count + b.count > Limits.maxArrayCount { throw loc.error(.arrayTooLarge(a.count + b.count), span) }
                    return .array(a + b)
                default:
                    guard let (a, b) = Self.doubles(x, y) else { throw mismatch(x, y) }
                    return try finite(a + b, a, b)
                }
            }
        case "-", "*":
            let isSub = op == "-"
            return { args in
                let x = try l(args)
                let y = try r(args)
                if case .int(let a) = x, case .int(let b) = y {
                    let (v, o) = isSub ? a.subtractingReportingOverflow(b) : a.multipliedReportingOverflow(by: b)
                    if o { throw overflow(a, b) }
                    return .int(v)
                }
                guard let (a, b) = Self.doubles(x, y) else { throw mismatch(x, y) }
                return try finite(isSub ? a - b : a * b, a, b)
            }
        default:  // "/", "%"
            let isDiv = op == "/"
            return { args in
                let x = try l(args)
                let y = try r(args)
                if case .int(let a) = x, case .int(let b) = y {
                    if b == 0 { throw loc.error(.divisionByZero(x, op, y), span) }
                    let (v, o) = isDiv ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
                    if o { throw overflow(a, b) }
                    return .int(v)
                }
                guard let (a, b) = Self.doubles(x, y) else { throw mismatch(x, y) }
                if b == 0 { throw loc.error(.divisionByZero(x, op, y), span) }
                return try finite(isDiv ? a / b : a.truncatingRemainder(dividingBy: b), a, b)
            }
        }
    }

    private static func doubles(_ x: Value, _ y: Value) -> (Double, Double)? {
        switch (x, y) {
        case (.double(let a), .double(let b)): return (a, b)
        case (.int(let a), .double(let b)): return (Double(a), b)
        case (.double(let a), .int(let b)): return (a, Double(b))
        default: return nil
        }
    }
}
