/// The arguments a closure is called with (`$0`, `$1`). Two slots cover every operator.
struct ClosureArguments: Sendable {
    var first: Value
    var second: Value
    /// Whether a pipeline closure is being built while the run goes (`deferred` at a
    /// subscription, `flatMap` for a value), not when the statement was built.
    var atRunTime = false
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
            // The parser makes only the table's operators; the row is looked up once, here.
            guard let row = UnaryOperator.named(op) else {
                let err = error(.unknownOperator(op), span)
                return { _ in throw err }
            }
            let evaluate = row.evaluate
            return { args in
                let v = try x(args)
                do throws(Message) {
                    return try evaluate(v)
                } catch {
                    throw loc.error(error, span)
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
            let evaluate = MemberCall.named(name)?.evaluate
            return { args in
                let b = try cb(args)
                guard let value = evaluate?(b) else { throw loc.error(.unknownMember(name, of: b), span) }
                return value
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

    /// A binary operation: its row is looked up here, once, and the compiled closure keeps the
    /// row's evaluation.
    private func compileBinary(_ op: String, _ lhs: Operand, _ rhs: Operand, _ span: Span) -> CompiledExpression {
        let loc = self
        guard let row = BinaryOperator.named(op) else {
            let err = error(.unknownOperator(op), span)
            return { _ in throw err }
        }
        switch row.evaluate {
        case .strict(let f):
            if let kernel = row.onInts {
                return kernel.compiled(lhs, rhs) { x, y in
                    do throws(Message) { return try f(x, y) } catch { throw loc.error(error, span) }
                }
            }
            return { args in
                let x = try lhs.value(args)
                let y = try rhs.value(args)
                do throws(Message) { return try f(x, y) } catch { throw loc.error(error, span) }
            }
        case .shortCircuit(let decide, let right):
            return { args in
                let x = try lhs.value(args)
                do throws(Message) {
                    if let decided = try decide(x) { return decided }
                } catch { throw loc.error(error, span) }
                let y = try rhs.value(args)
                do throws(Message) { return try right(y) } catch { throw loc.error(error, span) }
            }
        }
    }

}
