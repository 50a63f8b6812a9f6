/// What the checker knows about a binding.
struct BindingInfo: Sendable {
    var shape: Shape
    var isSubject: Bool
    var text: String
}

/// A stage after name resolution and argument matching.
struct CheckedStage: Sendable {
    enum Target: Sendable {
        case entry(Int)
        case binding(String)
    }
    var stage: Stage
    var target: Target
    var overload: Int
    /// Arguments by parameter index.
    var arguments: [Argument?]
    var shape: Shape

    var entry: CatalogEntry? { if case .entry(let i) = target { Catalog.table[i] } else { nil } }
    var displayName: String { stage.name }
}

/// A pipeline after checking: its stages (without the terminal) and the terminal's name.
struct CheckedPipeline: Sendable {
    var stages: [CheckedStage]
    var terminal: String
    var ast: PipelineAST
    var shape: Shape { stages.last?.shape ?? Shape(kind: .any, canFail: false) }
}

private enum CheckerText {
    static func unknownSource(_ name: String) -> String { "unknown source or binding '\(name)'" }
    static func unknownOperator(_ name: String) -> String { "unknown operator '\(name)'" }
    static func operatorFirst(_ name: String) -> String { "'\(name)' is an operator; a pipeline starts with a source such as 'just' or 'from'" }
    static func sourceAfterBar(_ name: String) -> String { "'\(name)' is a source and cannot follow '|'" }
    static func terminalNotLast(_ name: String) -> String { "'\(name)' ends a pipeline; it must be the last stage" }
    static func terminalNested(_ name: String) -> String { "'\(name)' can only end a statement, not a nested pipeline" }
    static func tooMany(_ name: String) -> String { "too many arguments for '\(name)'" }
    static func missing(_ name: String, _ placeholder: String) -> String { "'\(name)' is missing its \(placeholder) argument" }
    static func badLabel(_ name: String, _ label: String) -> String { "'\(name)' has no argument labelled '\(label):'" }
    static func expects(_ name: String, _ what: String, got: String) -> String { "\(name) expects \(what), got \(got)" }
    static let retryNoEffect = "retry has no effect: upstream never fails"
    static let replaceErrorNoEffect = "replaceError on a publisher that never fails has no effect"
    static let catchNoEffect = "catch on a publisher that never fails has no effect"
    static func dollarOutside(_ n: Int) -> String { "$\(n) is only available inside a closure" }
    static func closureArity(_ name: String, _ n: Int, _ arity: Int) -> String {
        "$\(n) is not available: \(name)'s closure takes \(arity == 1 ? "one argument ($0)" : "\(arity) arguments ($0…$\(arity - 1))")"
    }
    static func notSubject(_ name: String) -> String { "'\(name)' is not a subject; only 'subject' and 'currentValue' bindings accept send, finish and fail" }
    static func unknownSubject(_ name: String) -> String { "unknown subject '\(name)'" }
    static func reservedBinding(_ name: String) -> String { "cannot bind '\(name)': it is the name of a catalog entry" }
}

/// Resolves names, matches arguments against the catalog's signatures, validates constant
/// arguments and infers each stage's shape, collecting diagnostics.
struct Checker {
    let source: SourceText
    var bindings: [String: BindingInfo]
    var diagnostics: [Diagnostic] = []

    init(source: SourceText, bindings: [String: BindingInfo]) {
        self.source = source
        self.bindings = bindings
    }

    mutating func error(_ message: String, _ span: Span, notes: [String] = [], fixIt: String? = nil) {
        diagnostics.append(source.diagnostic(.error, message, at: span, notes: notes, fixIt: fixIt))
    }

    mutating func warning(_ message: String, _ span: Span) {
        diagnostics.append(source.diagnostic(.warning, message, at: span))
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Checks a statement; updates `bindings` for `let` so later statements of the same text see it.
    mutating func check(_ statement: StatementAST) -> CheckedPipeline? {
        switch statement.kind {
        case .pipeline(let p, _):
            return checkPipeline(p, dollars: [], nested: false)
        case .binding(let name, let nameSpan, let p):
            if Catalog.entry(named: name) != nil || ["let", "expect", "true", "false", "nil"].contains(name) {
                error(CheckerText.reservedBinding(name), nameSpan)
                return nil
            }
            let mark = diagnostics.count
            let checked = checkPipeline(p, dollars: [], nested: true)
            if let checked, !diagnostics[mark...].contains(where: { $0.severity == .error }) {
                let first = p.stages[0].name
                let isSubject = p.stages.count == 1 && (first == "subject" || first == "currentValue")
                bindings[name] = BindingInfo(shape: checked.shape, isSubject: isSubject, text: source.text(p.span))
            }
            return checked
        case .send(let subject, let span, let value):
            checkSubject(subject, span)
            checkConstant(value)
        case .finish(let subject, let span):
            checkSubject(subject, span)
        case .fail(let subject, let span, let value):
            checkSubject(subject, span)
            if let v = checkConstant(value), case .string = v {} else if !hasErrors {
                error(CheckerText.expects("\(subject).fail", "a message string", got: source.text(value.span)), value.span)
            }
        case .expect(let e, _):
            switch e {
            case .values(let x): checkConstant(x)
            case .failed(let x): checkConstant(x)
            case .count(let x):
                if let v = checkConstant(x) {
                    if case .int(let n) = v, n >= 0 {} else { error(CheckerText.expects("expect count", "a non-negative integer", got: v.description), x.span) }
                }
            case .time(let v):
                _ = duration(v, Span(0, 0), "expect time")
            case .finished: break
            }
        case .command: break
        }
        return nil
    }

    mutating func checkSubject(_ name: String, _ span: Span) {
        guard let binding = bindings[name] else {
            let subjects = bindings.filter { $0.value.isSubject }.map(\.key).sorted()
            error(CheckerText.unknownSubject(name), span, fixIt: Suggestions.closest(to: name, among: subjects).map { "did you mean '\($0)'?" })
            return
        }
        if !binding.isSubject { error(CheckerText.notSubject(name), span) }
    }

    /// Evaluates an argument that may not use `$n`; reports problems.
    @discardableResult
    mutating func checkConstant(_ e: Expr) -> Value? {
        if e.usesDollar {
            error(CheckerText.dollarOutside(max(0, e.highestDollar)), e.span)
            return nil
        }
        if case .range = e.kind { return nil }
        do {
            return try ExpressionCompiler(source: source).compile(e)(.none)
        } catch let failure as PipelineError {
            error(failure.message, e.span)
        } catch {}
        return nil
    }

    // MARK: pipelines

    mutating func checkPipeline(_ p: PipelineAST, dollars: [ValueKind], nested: Bool) -> CheckedPipeline? {
        var stages: [CheckedStage] = []
        var terminal = "sink"
        var shape = Shape(kind: .any, canFail: false)
        var ok = true
        for (index, stage) in p.stages.enumerated() {
            let name = stage.name
            let isFirst = index == 0
            if isFirst, let binding = bindings[name], Catalog.entry(named: name) == nil {
                if !stage.arguments.isEmpty {
                    error("a binding takes no arguments", stage.arguments[0].span)
                    ok = false
                }
                shape = binding.shape
                stages.append(CheckedStage(stage: stage, target: .binding(name), overload: 0, arguments: [], shape: shape))
                continue
            }
            guard let entryIndex = Catalog.byName[name] else {
                ok = false
                if isFirst {
                    let candidates = Catalog.names(of: .source) + bindings.keys.sorted()
                    if Catalog.names(of: .operator).contains(name) {
                        error(CheckerText.operatorFirst(name), stage.nameSpan)
                    } else {
                        error(CheckerText.unknownSource(name), stage.nameSpan,
                              fixIt: Suggestions.closest(to: name, among: candidates).map { "did you mean '\($0)'?" })
                    }
                } else {
                    let candidates = Catalog.names(of: .operator) + Catalog.names(of: .terminal)
                    error(CheckerText.unknownOperator(name), stage.nameSpan,
                          fixIt: Suggestions.closest(to: name, among: candidates).map { "did you mean '\($0)'?" })
                }
                continue
            }
            let entry = Catalog.table[entryIndex]
            switch entry.kind {
            case .source where !isFirst:
                error(CheckerText.sourceAfterBar(name), stage.nameSpan)
                ok = false
                continue
            case .operator where isFirst, .terminal where isFirst:
                error(CheckerText.operatorFirst(name), stage.nameSpan)
                ok = false
                continue
            case .terminal:
                if nested {
                    error(CheckerText.terminalNested(name), stage.nameSpan)
                    ok = false
                } else if index != p.stages.count - 1 {
                    error(CheckerText.terminalNotLast(name), stage.nameSpan)
                    ok = false
                }
                terminal = entry.name
                if !stage.arguments.isEmpty {
                    error(CheckerText.tooMany(name), stage.arguments[0].span, notes: ["signature: \(entry.signature)"])
                    ok = false
                }
                continue
            default: break
            }
            guard let (overload, arguments) = matchArguments(entry, stage, dollars: dollars) else {
                ok = false
                continue
            }
            switch entry.name {
            case "retry" where !shape.canFail: warning(CheckerText.retryNoEffect, stage.nameSpan)
            case "replaceError" where !shape.canFail: warning(CheckerText.replaceErrorNoEffect, stage.nameSpan)
            case "catch" where !shape.canFail: warning(CheckerText.catchNoEffect, stage.nameSpan)
            default: break
            }
            let input = InferenceInput(
                upstream: shape, arguments: arguments, overload: overload,
                pipelineShape: { [bindings, source] p, kinds in
                    var inner = Checker(source: source, bindings: bindings)
                    return inner.checkPipeline(p, dollars: kinds, nested: true)?.shape ?? Shape(kind: .any, canFail: true)
                },
                publisherShape: { [bindings, source] a in
                    switch a.value {
                    case .pipeline(let p):
                        var inner = Checker(source: source, bindings: bindings)
                        return inner.checkPipeline(p, dollars: [], nested: true)?.shape ?? Shape(kind: .any, canFail: true)
                    case .closure(let c):
                        guard case .pipeline(let p) = c.body else { return Shape(kind: .any, canFail: true) }
                        var inner = Checker(source: source, bindings: bindings)
                        return inner.checkPipeline(p, dollars: [], nested: true)?.shape ?? Shape(kind: .any, canFail: true)
                    case .word(let name): return bindings[name]?.shape ?? Shape(kind: .any, canFail: true)
                    default: return Shape(kind: .any, canFail: true)
                    }
                })
            shape = entry.infer(input)
            stages.append(CheckedStage(stage: stage, target: .entry(entryIndex), overload: overload, arguments: arguments, shape: shape))
        }
        return ok ? CheckedPipeline(stages: stages, terminal: terminal, ast: p) : nil
    }

    // MARK: arguments

    /// Which overload fits, with arguments by parameter index; reports the problem when none does.
    mutating func matchArguments(_ entry: CatalogEntry, _ stage: Stage, dollars: [ValueKind]) -> (Int, [Argument?])? {
        var firstFailure: [Diagnostic]? = nil
        // Prefer the overload whose labels match, so errors are about the intended form.
        let firstLabel = stage.arguments.first?.label
        let order = entry.overloads.count == 1 ? [0] : entry.overloads.indices.sorted { a, b in
            let la = entry.overloads[a].first?.label == firstLabel && firstLabel != nil
            let lb = entry.overloads[b].first?.label == firstLabel && firstLabel != nil
            return la && !lb
        }
        for overload in order {
            var trial = Checker(source: source, bindings: bindings)
            if let slots = trial.match(entry, entry.overloads[overload], stage, dollars: dollars), !trial.hasErrors {
                diagnostics += trial.diagnostics
                return (overload, slots)
            }
            if firstFailure == nil { firstFailure = trial.diagnostics }
        }
        diagnostics += firstFailure ?? []
        return nil
    }

    mutating func match(_ entry: CatalogEntry, _ params: [Parameter], _ stage: Stage, dollars: [ValueKind]) -> [Argument?]? {
        let name = stage.name
        let signature = entry.signatureNote
        var slots = [Argument?](repeating: nil, count: params.count)
        if params.first?.kind == .step {
            return checkStep(stage, dollars: dollars) ? [stage.arguments.first] : nil
        }
        for argument in stage.arguments {
            if let label = argument.label {
                guard let i = params.firstIndex(where: { $0.label == label }), slots[i] == nil else {
                    error(CheckerText.badLabel(name, label), argument.span, notes: [signature])
                    return nil
                }
                slots[i] = argument
            } else {
                guard let i = params.indices.first(where: { slots[$0] == nil && !params[$0].labelRequired }) else {
                    error(CheckerText.tooMany(name), argument.span, notes: [signature])
                    return nil
                }
                slots[i] = argument
            }
        }
        let mark = diagnostics.count
        for (i, param) in params.enumerated() {
            guard let argument = slots[i] else { continue }
            checkArgument(argument, param, name: name, dollars: dollars, signature: signature)
        }
        if diagnostics.count > mark { return nil }
        for (i, param) in params.enumerated() where slots[i] == nil && !param.optional {
            error(CheckerText.missing(name, param.placeholder), stage.nameSpan, notes: [signature])
            return nil
        }
        return slots
    }

    mutating func checkArgument(_ argument: Argument, _ param: Parameter, name: String, dollars: [ValueKind], signature: String) {
        let text = source.text(argument.span)
        let got = argument.label != nil ? String(text.drop(while: { $0 != ":" }).dropFirst().drop(while: { $0 == " " })) : text
        func expect(_ what: String) { error(CheckerText.expects(name, what, got: got), argument.span, notes: [signature]) }
        func value(_ e: Expr) -> Value? {
            if e.usesDollar {
                if dollars.isEmpty { error(CheckerText.dollarOutside(max(0, e.highestDollar)), e.span) }
                return nil
            }
            return checkConstant(e)
        }
        switch param.kind {
        case .count, .int, .positive:
            guard case .expr(let e) = argument.value else { return expect(param.kind == .int ? "an integer" : param.kind == .positive ? "a positive integer" : "a non-negative integer") }
            guard let v = value(e) else { return }
            switch (param.kind, v) {
            case (.count, .int(let n)) where n >= 0: return
            case (.positive, .int(let n)) where n >= 1: return
            case (.int, .int): return
            case (.count, _): expect("a non-negative integer")
            case (.positive, _): expect("a positive integer")
            default: expect("an integer")
            }
        case .value:
            guard case .expr(let e) = argument.value else {
                if case .word(let w) = argument.value {
                    error("unknown name '\(w)': \(name) expects a value here (strings are quoted)", argument.span, notes: [signature])
                    return
                }
                return expect("a value")
            }
            _ = value(e)
        case .string:
            guard case .expr(let e) = argument.value else { return expect("a string") }
            if let v = value(e), case .string = v {} else if !e.usesDollar { expect("a string") }
        case .bool:
            guard case .expr(let e) = argument.value else { return expect("true or false") }
            if let v = value(e), case .bool = v {} else if !e.usesDollar { expect("true or false") }
        case .duration:
            _ = duration(argument.value, argument.span, name, signature: signature, dollars: dollars)
        case .closure(let arity):
            guard case .closure(let c) = argument.value, case .expression(let e) = c.body else {
                return expect("a closure such as { \(param.placeholder) }")
            }
            if e.highestDollar >= arity {
                error(CheckerText.closureArity(name, e.highestDollar, arity), dollarSpan(e, e.highestDollar) ?? e.span)
            }
        case .pipelineClosure:
            guard case .closure(let c) = argument.value, case .pipeline(let p) = c.body else {
                return expect("a pipeline in braces, such as { just $0 }")
            }
            _ = checkPipeline(p, dollars: [.any, .any], nested: true)
        case .publisher:
            switch argument.value {
            case .pipeline(let p): _ = checkPipeline(p, dollars: dollars, nested: true)
            case .closure(let c):
                guard case .pipeline(let p) = c.body else { return expect("a publisher, such as (just 1)") }
                _ = checkPipeline(p, dollars: dollars, nested: true)
            case .word(let w):
                if bindings[w] == nil {
                    error("unknown binding '\(w)'", argument.span,
                          fixIt: Suggestions.closest(to: w, among: bindings.keys.sorted()).map { "did you mean '\($0)'?" })
                }
            default: expect("a publisher in parentheses, such as (just 1)")
            }
        case .keyword(let w):
            guard case .word(w) = argument.value else { return expect("'\(w)'") }
        case .sequence:
            guard case .expr(let e) = argument.value else { return expect("an array or a range") }
            if case .range(let lo, let hi) = e.kind {
                if let a = value(lo), let b = value(hi) {
                    guard case .int(let x) = a, case .int(let y) = b else { return expect("a range of integers") }
                    if x > y { error("range \(x)...\(y) has its lower bound above its upper bound", e.span) }
                }
                return
            }
            if let v = value(e) {
                if case .array = v {} else { expect("an array or a range") }
            }
        case .step:
            break
        }
    }

    func dollarSpan(_ e: Expr, _ n: Int) -> Span? {
        if case .dollar(n) = e.kind { return e.span }
        switch e.kind {
        case .array(let xs), .call(_, let xs): return xs.lazy.compactMap { dollarSpan($0, n) }.first
        case .unary(_, let x), .member(let x, _): return dollarSpan(x, n)
        case .binary(_, let a, let b), .index(let a, let b), .range(let a, let b): return dollarSpan(a, n) ?? dollarSpan(b, n)
        case .ternary(let a, let b, let c): return dollarSpan(a, n) ?? dollarSpan(b, n) ?? dollarSpan(c, n)
        case .interpolated(let parts):
            return parts.lazy.compactMap { if case .expr(let x) = $0 { dollarSpan(x, n) } else { nil } }.first
        default: return nil
        }
    }

    /// A duration argument in nanoseconds (a bare number is milliseconds); reports problems.
    mutating func duration(_ v: ArgumentValue, _ span: Span, _ name: String, signature: String? = nil, dollars: [ValueKind] = []) -> Int64? {
        let notes = signature.map { [$0] } ?? []
        switch v {
        case .duration(let ns): return ns
        case .expr(let e):
            if e.usesDollar {
                if dollars.isEmpty { error(CheckerText.dollarOutside(max(0, e.highestDollar)), e.span) }
                return nil
            }
            guard let value = checkConstant(e) else { return nil }
            switch Durations.nanoseconds(fromMilliseconds: value) {
            case .success(let ns): return ns
            case .failure(let problem):
                error(CheckerText.expects(name, problem.text, got: source.text(e.span)), e.span, notes: notes)
                return nil
            }
        default:
            error(CheckerText.expects(name, "a duration such as 100ms", got: source.text(span)), span, notes: notes)
            return nil
        }
    }

    /// asyncMap's step: `delay D [{ expr }]`, `flaky N`, `fail "message"`, or `{ expr }`.
    mutating func checkStep(_ stage: Stage, dollars: [ValueKind]) -> Bool {
        let args = stage.arguments
        let usage = "asyncMap takes delay D, delay D { expr }, flaky N, fail \"message\" or { expr }"
        guard let first = args.first else {
            error("asyncMap needs a step", stage.nameSpan, notes: [usage])
            return false
        }
        if let label = first.label {
            error(CheckerText.badLabel("asyncMap", label), first.span, notes: [usage])
            return false
        }
        let mark = diagnostics.count
        switch first.value {
        case .closure(let c):
            guard case .expression(let e) = c.body else {
                error("asyncMap's closure must be an expression", c.span, notes: [usage])
                return false
            }
            if e.highestDollar >= 1 { error(CheckerText.closureArity("asyncMap", e.highestDollar, 1), e.span) }
            if args.count > 1 { error(CheckerText.tooMany("asyncMap"), args[1].span, notes: [usage]) }
        case .word("delay"):
            guard args.count >= 2 else {
                error("asyncMap delay needs a duration", first.span, notes: [usage])
                return false
            }
            _ = duration(args[1].value, args[1].span, "asyncMap delay", signature: usage, dollars: dollars)
            if args.count >= 3 {
                guard case .closure(let c) = args[2].value, case .expression(let e) = c.body else {
                    error(CheckerText.expects("asyncMap delay", "a closure such as { $0 * 2 } after the duration", got: source.text(args[2].span)), args[2].span)
                    return false
                }
                if e.highestDollar >= 1 { error(CheckerText.closureArity("asyncMap", e.highestDollar, 1), e.span) }
            }
            if args.count > 3 { error(CheckerText.tooMany("asyncMap"), args[3].span, notes: [usage]) }
        case .word("flaky"):
            guard args.count == 2, case .expr(let e) = args[1].value else {
                error("asyncMap flaky needs a count, as in asyncMap flaky 2", args.count > 2 ? args[2].span : first.span, notes: [usage])
                return false
            }
            if let v = e.usesDollar ? nil : checkConstant(e) {
                if case .int(let n) = v, n >= 0 {} else { error(CheckerText.expects("asyncMap flaky", "a non-negative integer", got: source.text(e.span)), e.span) }
            }
        case .word("fail"):
            guard args.count == 2, case .expr(let e) = args[1].value else {
                error("asyncMap fail needs a message, as in asyncMap fail \"boom\"", args.count > 2 ? args[2].span : first.span, notes: [usage])
                return false
            }
            _ = e.usesDollar ? nil : checkConstant(e)
        case .word(let w):
            error("unknown asyncMap step '\(w)'", first.span, notes: [usage],
                  fixIt: Suggestions.closest(to: w, among: ["delay", "flaky", "fail"]).map { "did you mean '\($0)'?" })
            return false
        default:
            error("asyncMap expects a step, got \(source.text(first.span))", first.span, notes: [usage])
            return false
        }
        return !diagnostics[mark...].contains { $0.severity == .error }
    }
}

/// Duration conversions shared by the checker and the builders.
enum Durations {
    /// A bare number where a duration is expected means milliseconds.
    static func nanoseconds(fromMilliseconds value: Value) -> Result<Int64, DurationProblem> {
        switch value {
        case .int(let ms):
            guard ms >= 0 else { return .failure(DurationProblem(text: "a non-negative duration")) }
            let (ns, o) = ms.multipliedReportingOverflow(by: 1_000_000)
            guard !o else { return .failure(DurationProblem(text: "a duration that fits (at most \(Int.max / 1_000_000) ms)")) }
            return .success(Int64(ns))
        case .double(let ms):
            guard ms.isFinite, ms >= 0 else { return .failure(DurationProblem(text: "a non-negative duration")) }
            guard ms * 1e6 < 9.2e18 else { return .failure(DurationProblem(text: "a duration that fits (at most \(Int.max / 1_000_000) ms)")) }
            return .success(Int64(ms * 1e6))
        default:
            return .failure(DurationProblem(text: "a duration such as 100ms"))
        }
    }

    struct DurationProblem: Error {
        var text: String
    }
}
