/// Recursive-descent parser with caps on nesting depth and pipeline length, so hostile input gets a
/// positioned error instead of a stack overflow. Recovers at statement boundaries.
struct Parser {
    /// Deepest nesting of closures, parentheses, arrays, unary operators and interpolations.
    static let maxNesting = 64
    /// Tallest expression tree (long chains like `1 + 1 + … + 1`).
    static let maxExpressionDepth = 128
    /// Most stages in one pipeline as written: the same cap the checker puts on what a pipeline
    /// expands to (`Limits.maxExpandedStages`).
    static let maxStages = Limits.maxExpandedStages
    /// Diagnostics collected before giving up on a text.
    static let maxDiagnostics = 100

    let source: SourceText
    var tokens: [Token]
    var index = 0
    var depth = 0
    var diagnostics: [Diagnostic] = []
    /// The lexer already reported an unterminated bracket or string: errors at the end are noise.
    var endAlreadyReported = false
    /// Where the parser found tokens whose spacing the formatter must keep (`LayoutMarks`).
    var layout = LayoutMarks()

    struct Failure: Error { var diagnostic: Diagnostic }

    init(source: SourceText) {
        self.source = source
        var lexer = Lexer(source: source)
        lexer.run()
        self.tokens = lexer.tokens
        self.diagnostics = Array(lexer.diagnostics.prefix(Parser.maxDiagnostics))
        self.endAlreadyReported = !lexer.open.isEmpty || lexer.openString
    }

    /// Parses every statement; a statement with an error is skipped and reported.
    mutating func parseProgram() -> [StatementAST] {
        var statements: [StatementAST] = []
        while true {
            while current.kind == .newline { index += 1 }
            if current.kind == .eof { break }
            if diagnostics.count >= Parser.maxDiagnostics {
                diagnostics.append(source.diagnostic(.tooManyErrors, at: current.span))
                break
            }
            let mark = diagnostics.count
            do {
                let statement = try parseStatement()
                switch current.kind {
                case .newline, .eof: break
                default: throw fail(.unexpectedTokenAfterStatement(describe(current)), current.span)
                }
                if diagnostics.count == mark { statements.append(statement) }
            } catch let failure as Failure {
                if !(endAlreadyReported && failure.diagnostic.offset >= source.bytes.count) {
                    diagnostics.append(failure.diagnostic)
                }
                while current.kind != .newline && current.kind != .eof { index += 1 }
            } catch {}
        }
        return statements
    }

    // MARK: tokens

    var current: Token { tokens[index] }
    func peek(_ n: Int = 1) -> Token { tokens[min(index + n, tokens.count - 1)] }
    mutating func advance() -> Token {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    func fail(_ message: Message, _ span: Span, notes: [Diagnostic.Note] = [], help: String? = nil, fixIts: [FixIt] = []) -> Failure {
        Failure(diagnostic: source.diagnostic(message, at: span, notes: notes, help: help, fixIts: fixIts))
    }

    /// `did you mean 'x'?` and the edit that makes it, or neither when nothing is close.
    func suggesting(_ name: String, at span: Span, among candidates: [String]) -> (help: String?, fixIts: [FixIt]) {
        guard let suggestion = Suggestions.closest(to: name, among: candidates) else { return (nil, []) }
        return ("did you mean '\(suggestion)'?", [source.replacing(span, with: suggestion)])
    }

    /// An edit removing `token` and the spaces before it (a stray `&` or `|`).
    func removing(_ token: Token) -> FixIt {
        var start = token.span.offset
        while start > 0, source.bytes[start - 1] == UInt8(ascii: " ") || source.bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
        return FixIt(offset: start, length: token.span.offset + token.span.length - start, replacement: "")
    }

    mutating func expect(_ p: String, closing opener: Token? = nil) throws -> Token {
        if current.isPunct(p) { return advance() }
        if let opener {
            let at = source.location(of: opener.span.offset)
            // At the end of the line the closer goes there; elsewhere where it goes is a guess.
            let atEnd = current.kind == .newline || current.kind == .eof
            let insertAt = tokens[max(0, index - 1)].span.offset + tokens[max(0, index - 1)].span.length
            // `{ $0 = 1 }`: an assignment where a comparison was meant.
            if current.isPunct("=") {
                throw fail(
                    .assignmentInExpression, current.span, help: "to compare, write '=='",
                    fixIts: [FixIt(offset: current.span.offset, length: 1, replacement: "==")])
            }
            throw fail(
                .unclosedBracket(p, opener: opener.punct ?? "", line: at.line, column: at.column, found: describe(current)),
                current.span, help: "add '\(p)'",
                fixIts: atEnd ? [FixIt(offset: insertAt, length: 0, replacement: (p == "}" ? " " : "") + p)] : [])
        }
        throw fail(.expectedToken(p, found: describe(current)), current.span)
    }

    func describe(_ t: Token) -> String {
        switch t.kind {
        case .identifier(let s): return "'\(s)'"
        case .dollar(let n): return "'$\(n)'"
        case .int, .double, .duration: return "'\(source.text(t.span))'"
        case .string: return "a string"
        case .punct(let p): return "'\(p)'"
        case .newline: return "the end of the line"
        case .eof: return "the end of the input"
        }
    }

    mutating func enter(_ span: Span) throws {
        depth += 1
        if depth > Parser.maxNesting {
            throw fail(.nestingTooDeep, span)
        }
    }

    func make(_ kind: Expr.Kind, _ span: Span) throws -> Expr {
        let e = Expr(kind, span)
        if e.depth > Parser.maxExpressionDepth {
            throw fail(.expressionTooComplex, span)
        }
        return e
    }

    // MARK: statements

    mutating func parseStatement() throws -> StatementAST {
        let first = current
        if first.identifier == "let", peek().identifier != nil, peek(2).isPunct("=") {
            _ = advance()
            let name = advance()
            _ = advance()
            if case .newline = current.kind { throw fail(.missingBindingPipeline, current.span) }
            if case .eof = current.kind { throw fail(.missingBindingPipeline, current.span) }
            let pipeline = try parsePipeline()
            if current.isPunct("&") { throw fail(.backgroundBinding, current.span, fixIts: [removing(current)]) }
            return StatementAST(kind: .binding(name: name.identifier!, nameSpan: name.span, pipeline), span: first.span.through(pipeline.span))
        }
        if first.identifier == "let" {
            if peek().identifier == nil {
                throw fail(.missingBindingName, peek().span, help: "let name = …")
            }
            // `let x just 1`: the '=' goes before the pipeline.
            let next = peek(2)
            throw fail(
                .missingBindingEquals(peek().identifier!), next.span,
                fixIts: next.identifier != nil ? [FixIt(offset: next.span.offset, length: 0, replacement: "= ")] : [])
        }
        if first.identifier == "expect", let word = peek().identifier, Parser.expectations.contains(word) {
            return try parseExpect()
        }
        // `expect nothing`, `expect` alone: name the kinds of expectation.
        if first.identifier == "expect", peek().identifier != nil || peek().kind == .newline || peek().kind == .eof {
            let word = peek().identifier
            let suggestion = word.flatMap { suggesting($0, at: peek().span, among: Parser.expectations) }
            throw fail(
                .unknownExpectation(word), word == nil ? first.span : peek().span,
                notes: [
                    Diagnostic.Note(
                        "expect values [1, 2], finished, failed \"message\", count N, time 100ms, marbles \"-a-|\", subscriptions NAME N, or started 100ms")
                ],
                help: suggestion?.help, fixIts: suggestion?.fixIts ?? [])
        }
        if let name = first.identifier, peek().isPunct("."), let verb = peek(2).identifier {
            _ = advance()
            _ = advance()
            let verbToken = advance()
            let span = first.span.through(verbToken.span)
            switch verb {
            case "send":
                guard startsExpression(current) else {
                    throw fail(.sendNeedsValue(name, found: describe(current)), current.span, help: "\(name).send 1")
                }
                let value = try parseExpression()
                return StatementAST(kind: .send(subject: name, subjectSpan: first.span, value), span: span.through(value.span))
            case "finish":
                return StatementAST(kind: .finish(subject: name, subjectSpan: first.span), span: span)
            case "fail":
                guard startsExpression(current) else {
                    throw fail(.failNeedsMessage(name, found: describe(current)), current.span, help: "\(name).fail \"message\"")
                }
                let value = try parseExpression()
                return StatementAST(kind: .fail(subject: name, subjectSpan: first.span, value), span: span.through(value.span))
            default:
                let fix = suggesting(verb, at: verbToken.span, among: ["send", "finish", "fail"])
                throw fail(.unknownSubjectCommand(verb), verbToken.span, help: fix.help, fixIts: fix.fixIts)
            }
        }
        let pipeline = try parsePipeline()
        var background = false
        var span = pipeline.span
        if current.isPunct("&") {
            span = span.through(advance().span)
            background = true
        }
        return StatementAST(kind: .pipeline(pipeline, background: background), span: span)
    }

    /// What `expect` can check.
    static let expectations = ["values", "finished", "failed", "count", "time", "marbles", "subscriptions", "started"]

    mutating func parseExpect() throws -> StatementAST {
        let first = advance()
        let word = advance()
        let kind: ExpectAST
        switch word.identifier! {
        case "values":
            guard current.isPunct("[") else { throw fail(.expectValuesNeedsArray, current.span) }
            kind = .values(try parseExpression())
        case "finished": kind = .finished
        case "failed":
            guard case .string = current.kind else { throw fail(.expectFailedNeedsMessage, current.span) }
            kind = .failed(try parseExpression())
        case "count":
            guard startsExpression(current) else { throw fail(.expectCountNeedsNumber, current.span) }
            kind = .count(try parseExpression())
        case "marbles":
            guard case .string = current.kind else { throw fail(.expectMarblesNeedsString, current.span) }
            let marbles = try parseExpression()
            var frame: ArgumentValue?
            if current.identifier == "frame", peek().isPunct(":") {
                _ = advance()
                layout.labelColons.insert(advance().span.offset)
                frame = try parseArgumentValue()
            }
            kind = .marbles(marbles, frame: frame)
        case "subscriptions":
            guard let name = current.identifier else { throw fail(.expectSubscriptionsNeedsBinding, current.span) }
            let nameToken = advance()
            guard startsExpression(current) else { throw fail(.expectSubscriptionsNeedsBinding, current.span) }
            kind = .subscriptions(name: name, nameSpan: nameToken.span, try parseExpression())
        case "started":
            guard startsExpression(current) || { if case .duration = current.kind { true } else { false } }() else {
                throw fail(.expectStartedNeedsDuration, current.span)
            }
            kind = .started(try parseArgumentValue())
        default:
            guard startsExpression(current) || { if case .duration = current.kind { true } else { false } }() else {
                throw fail(.expectTimeNeedsDuration, current.span)
            }
            kind = .time(try parseArgumentValue())
        }
        return StatementAST(kind: .expect(kind, word.span), span: first.span.through(tokens[max(0, index - 1)].span))
    }

    // MARK: pipelines

    mutating func parsePipeline() throws -> PipelineAST {
        var stages = [try parseStage()]
        while current.isPunct("|") {
            let bar = advance()
            switch current.kind {
            case .newline, .eof:
                throw fail(.trailingPipe, bar.span, help: "remove the trailing '|' or add a stage", fixIts: [removing(bar)])
            case .punct(let p) where p == ")" || p == "}" || p == "|" || p == "&":
                // `a | | b`: the second '|' is a slip.
                throw fail(.missingStage(found: p), current.span, fixIts: p == "|" ? [removing(current)] : [])
            default: break
            }
            if stages.count >= Parser.maxStages {
                throw fail(.pipelineTooLong, current.span)
            }
            stages.append(try parseStage())
        }
        return PipelineAST(stages: stages, span: stages[0].span.through(stages[stages.count - 1].span))
    }

    mutating func parseStage() throws -> Stage {
        let nameToken = current
        guard let name = nameToken.identifier else {
            throw fail(.expectedStage(found: describe(nameToken)), nameToken.span)
        }
        _ = advance()
        var arguments: [Argument] = []
        while true {
            switch current.kind {
            case .newline, .eof: break
            case .punct(let p) where p == "|" || p == "&" || p == ")" || p == "}" || p == "]" || p == ",":
                break
            default:
                arguments.append(try parseArgument())
                continue
            }
            break
        }
        let span = arguments.last.map { nameToken.span.through($0.span) } ?? nameToken.span
        return Stage(name: name, nameSpan: nameToken.span, arguments: arguments, span: span)
    }

    mutating func parseArgument() throws -> Argument {
        let start = current
        if let label = start.identifier, peek().isPunct(":") {
            _ = advance()
            layout.labelColons.insert(advance().span.offset)
            switch current.kind {
            case .newline, .eof: throw fail(.missingLabelValue(label), current.span)
            case .punct(let p) where p == "|" || p == "&" || p == ")" || p == "}":
                throw fail(.unexpectedTokenAfterLabel(label, found: p), current.span)
            default: break
            }
            let value = try parseArgumentValue()
            return Argument(label: label, value: value, span: start.span.through(tokens[index - 1].span))
        }
        let value = try parseArgumentValue()
        return Argument(label: nil, value: value, span: start.span.through(tokens[max(0, index - 1)].span))
    }

    mutating func parseArgumentValue() throws -> ArgumentValue {
        let t = current
        switch t.kind {
        case .punct("{"):
            return .closure(try parseClosure())
        case .punct("(") where startsStage(peek(), peek(2)):
            let open = advance()
            try enter(open.span)
            let pipeline = try parsePipeline()
            _ = try expect(")", closing: open)
            depth -= 1
            return .pipeline(pipeline)
        case .duration(let ns):
            _ = advance()
            return .duration(ns)
        case .punct("-") where { if case .duration = peek().kind { true } else { false } }():
            throw fail(.negativeDuration, t.span.through(peek().span), fixIts: [FixIt(offset: t.span.offset, length: t.span.length, replacement: "")])
        case .identifier(let name) where !["true", "false", "nil"].contains(name) && !peek().isPunct("("):
            _ = advance()
            return .word(name)
        default:
            guard startsExpression(t) else {
                throw fail(.expectedArgument(found: describe(t)), t.span)
            }
            return .expr(try parseExpression())
        }
    }

    /// A closure holds a pipeline when it starts with a source's name, or with a name that is not
    /// a value, a call or the left operand of an operator (`{ ticks }`, `{ foo 1 }`).
    func closureHoldsPipeline(_ name: String, _ next: Token) -> Bool {
        if ["true", "false", "nil"].contains(name) || next.isPunct("(") { return false }
        if let entry = Catalog.entry(named: name), entry.kind == .source { return true }
        if let p = next.punct, Parser.binaryOperators.contains(p) || p == "." || p == "[" || p == "?" { return false }
        return true
    }

    /// The binary operators' symbols (`BinaryOperator.all`) and the range's `...`.
    static let binaryOperators: Set<String> = Set(BinaryOperator.symbols).union(["..."])

    /// `(` opens a pipeline when a stage name follows (an identifier that is not a value or a call).
    func startsStage(_ t: Token, _ next: Token) -> Bool {
        guard let name = t.identifier else { return false }
        return !["true", "false", "nil"].contains(name) && !next.isPunct("(")
    }

    func startsExpression(_ t: Token) -> Bool {
        switch t.kind {
        case .int, .double, .string, .dollar: return true
        case .identifier: return true
        case .punct(let p): return p == "[" || p == "(" || UnaryOperator.named(p) != nil
        default: return false
        }
    }

    mutating func parseClosure() throws -> Closure {
        let open = advance()
        try enter(open.span)
        defer { depth -= 1 }
        if current.isPunct("}") {
            throw fail(.emptyClosure, open.span.through(current.span))
        }
        let body: Closure.Body
        if let name = current.identifier, closureHoldsPipeline(name, peek()) {
            body = .pipeline(try parsePipeline())
        } else {
            // `cond ? publisher : publisher` chooses a pipeline per value; any other body is an
            // expression (whose ternary branches are values).
            let condition = try parseOr()
            if current.isPunct("?"), branchIsPublisher(peek(), peek(2)) {
                body = .choice(try parseChoice(after: condition))
            } else {
                body = .expression(try parseTernary(after: condition))
            }
        }
        let close = try expect("}", closing: open)
        return Closure(body: body, span: open.span.through(close.span))
    }

    // MARK: expressions

    mutating func parseExpression() throws -> Expr {
        try parseTernary(after: try parseOr())
    }

    /// The rest of `condition ? a : b`, or `condition` itself when no `?` follows.
    mutating func parseTernary(after condition: Expr) throws -> Expr {
        guard current.isPunct("?") else { return condition }
        let q = advance()
        try enter(q.span)
        defer { depth -= 1 }
        let yes = try parseExpression()
        _ = try expect(":")
        let no = try parseExpression()
        return try make(.ternary(condition, yes, no), condition.span.through(no.span))
    }

    /// Whether a ternary branch starting at `t` is a publisher: `(` and a stage name, or a bare
    /// name (a binding or a source such as `empty`) that ends the branch.
    func branchIsPublisher(_ t: Token, _ next: Token) -> Bool {
        if t.isPunct("(") { return startsStage(next, .init(kind: .eof, span: next.span)) && !BuiltinFunction.names.contains(next.identifier ?? "") }
        guard let name = t.identifier, !["true", "false", "nil"].contains(name), !BuiltinFunction.names.contains(name) else { return false }
        return next.isPunct(":") || next.isPunct("}")
    }

    /// `? yes : no` after a condition, where the branches are publishers.
    mutating func parseChoice(after condition: Expr) throws -> PublisherChoice {
        let q = try expect("?")
        try enter(q.span)
        defer { depth -= 1 }
        let yes = try parseChoiceBranch()
        _ = try expect(":")
        let no = try parseChoiceBranch()
        return .choice(condition, yes, no)
    }

    /// A publisher branch: `(pipeline)`, a bare name, or a nested `cond ? … : …`.
    mutating func parseChoiceBranch() throws -> PublisherChoice {
        if current.isPunct("("), branchIsPublisher(current, peek()) {
            let open = advance()
            let pipeline = try parsePipeline()
            _ = try expect(")", closing: open)
            return .pipeline(pipeline)
        }
        if let name = current.identifier, branchIsPublisher(current, peek()) {
            let t = advance()
            return .pipeline(PipelineAST(stages: [Stage(name: name, nameSpan: t.span, arguments: [], span: t.span)], span: t.span))
        }
        let start = current
        let condition = try parseOr()
        guard current.isPunct("?") else { throw fail(.branchNotPublisher, start.span.through(condition.span)) }
        return try parseChoice(after: condition)
    }

    mutating func parseBinaryLevel(_ ops: Set<String>, next: (inout Parser) throws -> Expr) throws -> Expr {
        var lhs = try next(&self)
        while let p = current.punct, ops.contains(p) {
            _ = advance()
            let rhs = try next(&self)
            lhs = try make(.binary(p, lhs, rhs), lhs.span.through(rhs.span))
        }
        return lhs
    }

    // The levels' operators, from the table (`BinaryOperator.level`).
    static let orOperators = BinaryOperator.symbols(at: .or)
    static let andOperators = BinaryOperator.symbols(at: .and)
    static let comparisonOperators = BinaryOperator.symbols(at: .comparison)
    static let additiveOperators = BinaryOperator.symbols(at: .additive)
    static let multiplicativeOperators = BinaryOperator.symbols(at: .multiplicative)

    mutating func parseOr() throws -> Expr { try parseBinaryLevel(Parser.orOperators) { try $0.parseAnd() } }
    mutating func parseAnd() throws -> Expr { try parseBinaryLevel(Parser.andOperators) { try $0.parseComparison() } }

    mutating func parseComparison() throws -> Expr {
        let lhs = try parseCoalescing()
        guard let p = current.punct, Parser.comparisonOperators.contains(p) else { return lhs }
        _ = advance()
        let rhs = try parseCoalescing()
        if let q = current.punct, Parser.comparisonOperators.contains(q) {
            throw fail(.chainedComparison, current.span)
        }
        return try make(.binary(p, lhs, rhs), lhs.span.through(rhs.span))
    }

    mutating func parseCoalescing() throws -> Expr {
        // Right-associative, but parsed as a loop so a long chain cannot recurse.
        var operands = [try parseRange()]
        while current.isPunct("??") {
            _ = advance()
            operands.append(try parseRange())
        }
        var result = operands.removeLast()
        while let lhs = operands.popLast() {
            result = try make(.binary("??", lhs, result), lhs.span.through(result.span))
        }
        return result
    }

    mutating func parseRange() throws -> Expr {
        let lhs = try parseAdditive()
        guard current.isPunct("...") else { return lhs }
        _ = advance()
        let rhs = try parseAdditive()
        return try make(.range(lhs, rhs), lhs.span.through(rhs.span))
    }

    mutating func parseAdditive() throws -> Expr { try parseBinaryLevel(Parser.additiveOperators) { try $0.parseMultiplicative() } }
    mutating func parseMultiplicative() throws -> Expr { try parseBinaryLevel(Parser.multiplicativeOperators) { try $0.parseUnary() } }

    mutating func parseUnary() throws -> Expr {
        if let p = current.punct, UnaryOperator.named(p) != nil {
            let op = advance()
            layout.unaryOperators.insert(op.span.offset)
            try enter(op.span)
            defer { depth -= 1 }
            let operand = try parseUnary()
            // Fold `-literal` so that Int.min can be written and printing round-trips.
            if p == "-", case .literal(.int(let v)) = operand.kind, operand.span.offset == op.span.offset + 1 {
                // The lexer gives `-9223372036854775808`'s digits as Int.min already.
                return try make(.literal(.int(v == .min ? .min : -v)), op.span.through(operand.span))
            }
            if p == "-", case .literal(.double(let v)) = operand.kind, operand.span.offset == op.span.offset + 1 {
                return try make(.literal(.double(-v)), op.span.through(operand.span))
            }
            return try make(.unary(p, operand), op.span.through(operand.span))
        }
        return try parsePostfix()
    }

    mutating func parsePostfix() throws -> Expr {
        var e = try parsePrimary()
        while true {
            if current.isPunct("[") && current.span.offset == e.span.offset + e.span.length {
                let open = advance()
                layout.attachedOpeners.insert(open.span.offset)
                try enter(open.span)
                let index = try parseExpression()
                let close = try expect("]", closing: open)
                depth -= 1
                e = try make(.index(e, index), e.span.through(close.span))
            } else if current.isPunct("."), let name = peek().identifier {
                _ = advance()
                var last = advance()
                // `uppercased()` reads like Swift; a member takes no arguments.
                if current.isPunct("("), peek().isPunct(")"), current.span.offset == last.span.offset + last.span.length {
                    layout.attachedOpeners.insert(advance().span.offset)
                    last = advance()
                }
                e = try make(.member(e, name), e.span.through(last.span))
            } else {
                return e
            }
        }
    }

    mutating func parsePrimary() throws -> Expr {
        let t = current
        switch t.kind {
        case .int(let v):
            _ = advance()
            return try make(.literal(.int(v)), t.span)
        case .double(let v):
            _ = advance()
            return try make(.literal(.double(v)), t.span)
        case .dollar(let n):
            _ = advance()
            return try make(.dollar(n), t.span)
        case .string(let parts):
            _ = advance()
            return try parseString(parts, t.span)
        case .duration(let ns):
            // `100ms` → `100`: the same time in milliseconds, when it is a whole number of them.
            let fix = ns % 1_000_000 == 0 ? [source.replacing(t.span, with: String(ns / 1_000_000))] : []
            throw fail(.durationInExpression, t.span, fixIts: fix)
        case .identifier(let name):
            _ = advance()
            switch name {
            case "true": return try make(.literal(.bool(true)), t.span)
            case "false": return try make(.literal(.bool(false)), t.span)
            case "nil": return try make(.literal(.null), t.span)
            default: break
            }
            guard current.isPunct("(") else {
                let fix = suggesting(name, at: t.span, among: BuiltinFunction.names + ["true", "false", "nil"])
                throw fail(
                    .unknownName(name), t.span, notes: [Diagnostic.Note("closures refer to their arguments as $0, $1")], help: fix.help,
                    fixIts: fix.fixIts)
            }
            let open = advance()
            layout.attachedOpeners.insert(open.span.offset)
            try enter(open.span)
            var arguments: [Expr] = []
            if !current.isPunct(")") {
                arguments.append(try parseExpression())
                while current.isPunct(",") {
                    _ = advance()
                    arguments.append(try parseExpression())
                }
            }
            let close = try expect(")", closing: open)
            depth -= 1
            return try make(.call(name, arguments), t.span.through(close.span))
        case .punct("("):
            let open = advance()
            try enter(open.span)
            let inner = try parseExpression()
            _ = try expect(")", closing: open)
            depth -= 1
            return inner
        case .punct("["):
            let open = advance()
            try enter(open.span)
            var items: [Expr] = []
            if !current.isPunct("]") {
                items.append(try parseExpression())
                while current.isPunct(",") {
                    _ = advance()
                    if current.isPunct("]") { break }
                    items.append(try parseExpression())
                }
            }
            let close = try expect("]", closing: open)
            depth -= 1
            return try make(.array(items), open.span.through(close.span))
        default:
            throw fail(.expectedValue(found: describe(t)), t.span)
        }
    }

    mutating func parseString(_ parts: [StringToken], _ span: Span) throws -> Expr {
        var out: [StringPart] = []
        for part in parts {
            switch part {
            case .text(let s): out.append(.text(s))
            case .interpolation(let offset, let length):
                try enter(Span(offset - 2, 2))
                var lexer = Lexer(source: source, range: offset..<(offset + length))
                lexer.run()
                diagnostics.append(contentsOf: lexer.diagnostics)
                if !lexer.diagnostics.isEmpty { throw fail(.invalidInterpolation, Span(offset - 2, length + 3)) }
                var inner = Parser(source: source, tokens: lexer.tokens, depth: depth)
                guard case .eof = inner.current.kind else {
                    let e = try inner.parseExpression()
                    guard case .eof = inner.current.kind else {
                        throw inner.fail(.unexpectedTokenInInterpolation(inner.describe(inner.current)), inner.current.span)
                    }
                    diagnostics.append(contentsOf: inner.diagnostics)
                    out.append(.expr(e))
                    depth -= 1
                    continue
                }
                throw fail(.emptyInterpolation, Span(offset - 2, length + 3))
            }
        }
        if out.count <= 1, case .text(let s)? = out.first ?? .text("") {
            return try make(.literal(.string(s)), span)
        }
        return try make(.interpolated(out), span)
    }

    private init(source: SourceText, tokens: [Token], depth: Int) {
        self.source = source
        self.tokens = tokens.filter { $0.kind != .newline }
        self.depth = depth
    }
}

/// What the parser learns about spacing that tokens alone do not tell: which `-` is unary, which
/// `:` ends a label, which `(` or `[` must touch what precedes it. Byte offsets of those tokens.
struct LayoutMarks: Sendable {
    /// Unary operators (`-1`, `!$0`): no space after them.
    var unaryOperators: Set<Int> = []
    /// A label's colon (`frame: 10ms`): no space before it.
    var labelColons: Set<Int> = []
    /// A call's `(` (`min(`) or an index's `[` (`$0[1]`): no space before them.
    var attachedOpeners: Set<Int> = []
}
