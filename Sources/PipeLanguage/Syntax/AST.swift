/// A closure expression (`$0 * 2`, `"n=\($0)"`, `$0 > 1 ? "a" : "b"`).
struct Expr: Sendable, Hashable {
    indirect enum Kind: Sendable, Hashable {
        /// int, double, string, bool or nil.
        case literal(Value)
        case dollar(Int)
        case array([Expr])
        case interpolated([StringPart])
        case unary(String, Expr)
        case binary(String, Expr, Expr)
        case ternary(Expr, Expr, Expr)
        case index(Expr, Expr)
        case member(Expr, String)
        case call(String, [Expr])
        /// `lo...hi`: a closed range of integers.
        case range(Expr, Expr)
    }
    var kind: Kind
    var span: Span
    /// Height of the tree, capped by the parser so evaluation never recurses too deep.
    var depth: Int

    init(_ kind: Kind, _ span: Span) {
        self.kind = kind
        self.span = span
        var d = 0
        switch kind {
        case .literal, .dollar: d = 0
        case .array(let items): d = items.map(\.depth).max() ?? 0
        case .interpolated(let parts):
            d = parts.map { if case .expr(let e) = $0 { e.depth } else { 0 } }.max() ?? 0
        case .unary(_, let e), .member(let e, _): d = e.depth
        case .binary(_, let a, let b), .index(let a, let b), .range(let a, let b): d = max(a.depth, b.depth)
        case .ternary(let a, let b, let c): d = max(a.depth, b.depth, c.depth)
        case .call(_, let args): d = args.map(\.depth).max() ?? 0
        }
        self.depth = d + 1
    }

    static func == (lhs: Expr, rhs: Expr) -> Bool { lhs.kind == rhs.kind }
    func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// Whether the expression mentions `$n` outside nested closures (it needs a closure's arguments).
    var usesDollar: Bool {
        switch kind {
        case .literal: return false
        case .dollar: return true
        case .array(let items), .call(_, let items): return items.contains { $0.usesDollar }
        case .interpolated(let parts): return parts.contains { if case .expr(let e) = $0 { e.usesDollar } else { false } }
        case .unary(_, let e), .member(let e, _): return e.usesDollar
        case .binary(_, let a, let b), .index(let a, let b), .range(let a, let b): return a.usesDollar || b.usesDollar
        case .ternary(let a, let b, let c): return a.usesDollar || b.usesDollar || c.usesDollar
        }
    }

    /// The highest `$n` used (−1 for none).
    var highestDollar: Int {
        switch kind {
        case .literal: return -1
        case .dollar(let n): return n
        case .array(let items), .call(_, let items): return items.map(\.highestDollar).max() ?? -1
        case .interpolated(let parts): return parts.map { if case .expr(let e) = $0 { e.highestDollar } else { -1 } }.max() ?? -1
        case .unary(_, let e), .member(let e, _): return e.highestDollar
        case .binary(_, let a, let b), .index(let a, let b), .range(let a, let b): return max(a.highestDollar, b.highestDollar)
        case .ternary(let a, let b, let c): return max(a.highestDollar, b.highestDollar, c.highestDollar)
        }
    }
}

/// A piece of an interpolated string.
enum StringPart: Sendable, Hashable {
    case text(String)
    case expr(Expr)
}

/// `{ … }`: an expression (for map, filter, scan, …), a pipeline (for flatMap, catch, deferred,
/// …), or a choice between pipelines (`{ $0 > 1 ? (from [$0, $0]) : (just 0) }`).
struct Closure: Sendable, Hashable {
    enum Body: Sendable, Hashable {
        case expression(Expr)
        case pipeline(PipelineAST)
        case choice(PublisherChoice)
    }
    var body: Body
    var span: Span
}

/// `condition ? a : b` whose branches are publishers: a pipeline in parentheses, a binding's or
/// a source's bare name (`heartRate`, `empty`), or another choice.
indirect enum PublisherChoice: Sendable, Hashable {
    case pipeline(PipelineAST)
    case choice(Expr, PublisherChoice, PublisherChoice)
}

/// One stage argument's value.
enum ArgumentValue: Sendable, Hashable {
    /// A literal or expression: `3`, `"x"`, `[1, 2]`, `1...5`, `-1`, `$0 * 10` (inside closures).
    case expr(Expr)
    /// `100ms`, `1.5s`, `2m`: nanoseconds.
    case duration(Int64)
    /// A bare name: `delay`, `flaky`, `value`, a binding's name.
    case word(String)
    case closure(Closure)
    /// `( pipeline )`.
    case pipeline(PipelineAST)
}

/// `label: value` or `value`.
struct Argument: Sendable, Hashable {
    var label: String?
    var value: ArgumentValue
    var span: Span
}

/// `name arg arg …`.
struct Stage: Sendable, Hashable {
    var name: String
    var nameSpan: Span
    var arguments: [Argument]
    var span: Span
}

/// `stage | stage | …`.
struct PipelineAST: Sendable, Hashable {
    var stages: [Stage]
    var span: Span
}

/// `expect …`.
enum ExpectAST: Sendable, Hashable {
    case values(Expr)
    case finished
    case failed(Expr)
    case count(Expr)
    case time(ArgumentValue)
    /// `expect marbles "-a-b-|" [frame: D]`.
    case marbles(Expr, frame: ArgumentValue?)
    /// `expect subscriptions NAME N`: how many times binding NAME's source was subscribed.
    case subscriptions(name: String, nameSpan: Span, Expr)
    /// `expect started D`: when, after the pipeline's subscription, a future's work began.
    case started(ArgumentValue)
}

/// What a statement does.
enum StatementKind: Sendable, Hashable {
    case pipeline(PipelineAST, background: Bool)
    case binding(name: String, nameSpan: Span, PipelineAST)
    case send(subject: String, subjectSpan: Span, Expr)
    case finish(subject: String, subjectSpan: Span)
    case fail(subject: String, subjectSpan: Span, Expr)
    case expect(ExpectAST, Span)
}

/// A parsed statement with its span.
struct StatementAST: Sendable, Hashable {
    var kind: StatementKind
    var span: Span
}
