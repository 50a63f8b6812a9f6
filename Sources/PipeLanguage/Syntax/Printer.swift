/// Prints an AST back as canonical `.pipe` text; parsing the output gives an equal AST.
enum Printer {
    static func print(_ choice: PublisherChoice) -> String {
        switch choice {
        case .pipeline(let p): return "(\(print(p)))"
        case .choice(let condition, let yes, let no): return "\(print(condition)) ? \(print(yes)) : \(print(no))"
        }
    }

    static func print(_ s: StatementAST) -> String {
        switch s.kind {
        case .pipeline(let p, let background): return print(p) + (background ? " &" : "")
        case .binding(let name, _, let p): return "let \(name) = \(print(p))"
        case .send(let subject, _, let e): return "\(subject).send \(print(e))"
        case .finish(let subject, _): return "\(subject).finish"
        case .fail(let subject, _, let e): return "\(subject).fail \(print(e))"
        case .expect(let e, _):
            switch e {
            case .values(let x): return "expect values \(print(x))"
            case .finished: return "expect finished"
            case .failed(let x): return "expect failed \(print(x))"
            case .count(let x): return "expect count \(print(x))"
            case .time(let v): return "expect time \(print(v))"
            case .marbles(let x, let frame): return "expect marbles \(print(x))" + (frame.map { " frame: \(print($0))" } ?? "")
            case .subscriptions(let name, _, let x): return "expect subscriptions \(name) \(print(x))"
            case .started(let v): return "expect started \(print(v))"
            }
        }
    }

    static func print(_ p: PipelineAST) -> String {
        p.stages.map(print).joined(separator: " | ")
    }

    static func print(_ stage: Stage) -> String {
        ([stage.name] + stage.arguments.map { a in (a.label.map { "\($0): " } ?? "") + print(a.value) }).joined(separator: " ")
    }

    static func print(_ v: ArgumentValue) -> String {
        switch v {
        case .expr(let e): return print(e)
        case .duration(let ns): return duration(ns)
        case .word(let w): return w
        case .closure(let c):
            switch c.body {
            case .expression(let e): return "{ \(print(e)) }"
            case .pipeline(let p): return "{ \(print(p)) }"
            case .choice(let choice): return "{ \(print(choice)) }"
            }
        case .pipeline(let p): return "(\(print(p)))"
        }
    }

    static func duration(_ ns: Int64) -> String {
        for (unit, scale) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)]
        where ns != 0 && ns % scale == 0 {
            return "\(ns / scale)\(unit)"
        }
        return ns == 0 ? "0ms" : "\(ns)ns"
    }

    /// Binding strength, as the parser's levels (higher binds tighter).
    static func precedence(_ e: Expr) -> Int {
        switch e.kind {
        case .ternary: return 1
        case .binary(let op, _, _): return BinaryOperator.named(op)?.level.rawValue ?? 8
        case .range: return 6
        case .unary: return 9
        default: return 10
        }
    }

    static func print(_ e: Expr) -> String {
        switch e.kind {
        case .literal(let v):
            if case .double(let d) = v { return "\(d)" }
            return v.description
        case .dollar(let n): return "$\(n)"
        case .array(let items): return "[" + items.map(print).joined(separator: ", ") + "]"
        case .interpolated(let parts):
            var out = "\""
            for part in parts {
                switch part {
                case .text(let s): out += String(Value.quote(s).dropFirst().dropLast())
                case .expr(let x): out += "\\(\(print(x)))"
                }
            }
            return out + "\""
        case .unary(let op, let x):
            return op + wrap(x, above: 9)
        case .binary(let op, let a, let b):
            let p = precedence(e)
            switch BinaryOperator.named(op)?.level.associativity ?? .left {
            case .right: return "\(wrap(a, above: p + 1)) \(op) \(wrap(b, above: p))"
            case .none: return "\(wrap(a, above: p + 1)) \(op) \(wrap(b, above: p + 1))"
            case .left: return "\(wrap(a, above: p)) \(op) \(wrap(b, above: p + 1))"
            }
        case .ternary(let c, let a, let b):
            return "\(wrap(c, above: 2)) ? \(print(a)) : \(print(b))"
        case .index(let base, let i): return "\(wrap(base, above: 10))[\(print(i))]"
        case .member(let base, let name):
            return "\(wrap(base, above: 10)).\(name)" + (MemberCall.named(name)?.isMethod == true ? "()" : "")
        case .call(let name, let args): return "\(name)(" + args.map(print).joined(separator: ", ") + ")"
        case .range(let a, let b): return "\(wrap(a, above: 7))...\(wrap(b, above: 7))"
        }
    }

    /// Prints `e`, in parentheses unless it binds at least as tightly as `above`.
    static func wrap(_ e: Expr, above: Int) -> String {
        if precedence(e) >= above {
            // A negative literal as an operand of a postfix or unary operator needs parentheses.
            if above >= 9, case .literal(let v) = e.kind, v.description.hasPrefix("-") { return "(\(print(e)))" }
            return print(e)
        }
        return "(\(print(e)))"
    }
}
