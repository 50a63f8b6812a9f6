/// A catalog entry's Swift translation: the stage as Combine code against `Reactive`, given the
/// upstream's code, the stage's arguments (translated on request) and the shapes.
typealias SwiftTranslation = @Sendable (SwiftStage) -> SwiftCode

/// Swift code for a publisher: a source and the operators applied to it, with the Swift types it
/// has (which can be more precise than the static pass's: `compactMap` drops the `nil` kind).
struct SwiftCode: Sendable {
    /// The source expression (`[1, 2, 3].publisher`), then each operator (`.map { $0 * 10 }`).
    var parts: [String]
    /// The Swift `Output`.
    var kind: ValueKind
    /// The Swift `Failure` is `Error` (else `Never`).
    var fails: Bool
    /// `zip` and `combineLatest` of two kinds: a Swift tuple rather than an array.
    var pair: [ValueKind]? = nil
    /// How a terminal consumes it (set by the terminal's translation).
    var consumption: SwiftConsumption = .sink
    /// The code is an `AsyncSequence` (after `.values` or the stream bridge), not a publisher;
    /// `fails` then says whether iterating it throws.
    var isSequence = false

    init(_ source: String, kind: ValueKind, fails: Bool, pair: [ValueKind]? = nil) {
        parts = [source]
        self.kind = kind
        self.fails = fails
        self.pair = pair
    }

    /// The code with `.operator` appended.
    func then(_ part: String, kind: ValueKind? = nil, fails: Bool? = nil) -> SwiftCode {
        var copy = self
        copy.parts.append(part)
        copy.kind = kind ?? self.kind
        copy.fails = fails ?? self.fails
        if kind != nil { copy.pair = nil }
        return copy
    }

    /// The same values with `Failure == Error` (Combine wants both sides of merge, zip, … to agree).
    var failing: SwiftCode { fails ? self : then(".setFailureType(to: Error.self)", fails: true) }

    /// The Swift type of the values: `Int`, `[String]`, `(Int, String)`.
    var outputType: String { pair.map { "(" + $0.map(\.swiftName).joined(separator: ", ") + ")" } ?? kind.swiftName }
    /// `AnyPublisher<Int, Never>`.
    var publisherType: String { "AnyPublisher<\(outputType), \(fails ? "Error" : "Never")>" }

    /// One line when it is short, else one operator a line, indented under the source.
    func rendered(indent: String = "") -> String {
        let flat = parts.joined()
        if flat.count <= 100 && !flat.contains("\n") { return flat }
        let step = indent + "    "
        return parts[0] + parts.dropFirst().map { "\n" + step + $0.replacingOccurrences(of: "\n", with: "\n" + step) }.joined()
    }
}

/// What `$0` (and `$1`) are where a stage is written: nothing at the top, a closure parameter
/// inside a pipeline closure (`flatMap { just $0 }` → `{ value in Just(value) }`).
struct SwiftScope: Sendable {
    var names: [String] = []
    var kinds: [ValueKind] = []
    var depth = 0
}

/// What an entry's Swift translation gets: its checked stage, the upstream's Swift code (for a
/// source, empty, with the kind the pipeline is expected to have), and helpers that translate its
/// arguments in scope.
struct SwiftStage {
    let translator: SwiftTranslator
    let stage: CheckedStage
    /// The upstream publisher's code; for a source, no parts.
    let upstream: SwiftCode
    let scope: SwiftScope
    /// For a source whose own kind is `nothing` (`empty`, `fail`): the kind its pipeline needs.
    let expected: ValueKind

    /// The same stage with its written arguments by position (asyncMap's step: `delay`, `100`, `{ … }`).
    var positional: SwiftStage {
        var raw = stage
        raw.arguments = stage.stage.arguments.map { Optional($0) }
        return SwiftStage(translator: translator, stage: raw, upstream: upstream, scope: scope, expected: expected)
    }

    /// The stage's shape as the static pass inferred it.
    var shape: Shape { stage.shape }
    var overload: Int { stage.overload }
    func has(_ i: Int) -> Bool { i < stage.arguments.count && stage.arguments[i] != nil }
    var source: SourceText { translator.source }

    /// The kind this stage's values have: the static pass's, or the expected one where it knows none.
    var kind: ValueKind { shape.kind == .nothing ? expected : shape.kind }

    /// The value argument at `i` as a Swift expression.
    func value(_ i: Int) -> String { expression(i).text }

    /// The value argument at `i`: its text and kind.
    func expression(_ i: Int) -> (text: String, kind: ValueKind) {
        guard has(i), case .expr(let e) = stage.arguments[i]!.value else { return ("nil", .any) }
        return translator.expression(e, scope.names, scope.kinds)
    }

    /// A string argument's contents.
    func string(_ i: Int) -> String {
        guard has(i), case .expr(let e) = stage.arguments[i]!.value, case .literal(let v) = e.kind else { return "" }
        return v.plainText
    }

    /// A duration argument as a `DispatchQueue` stride: `.milliseconds(100)`.
    func duration(_ i: Int) -> String {
        guard has(i) else { return ".zero" }
        switch stage.arguments[i]!.value {
        case .duration(let ns): return Self.stride(ns)
        case .expr(let e):
            if case .literal(.int(let ms)) = e.kind { return ".milliseconds(\(ms))" }
            if case .literal(.double(let ms)) = e.kind { return Self.stride(Int64(ms * 1_000_000)) }
            return ".milliseconds(\(translator.expression(e, scope.names, scope.kinds).text))"
        default: return ".zero"
        }
    }

    /// A duration argument in nanoseconds, when it is written as a constant.
    func nanoseconds(_ i: Int) -> Int64? {
        guard has(i) else { return nil }
        switch stage.arguments[i]!.value {
        case .duration(let ns): return ns
        case .expr(let e):
            if case .literal(.int(let ms)) = e.kind { return Int64(ms) * 1_000_000 }
            if case .literal(.double(let ms)) = e.kind { return Int64(ms * 1_000_000) }
            return nil
        default: return nil
        }
    }

    /// `.milliseconds(100)`, `.seconds(1)`, `.nanoseconds(1500)`.
    static func stride(_ ns: Int64) -> String {
        if ns % 1_000_000_000 == 0 { return ".seconds(\(ns / 1_000_000_000))" }
        if ns % 1_000_000 == 0 { return ".milliseconds(\(ns / 1_000_000))" }
        if ns % 1_000 == 0 { return ".microseconds(\(ns / 1_000))" }
        return ".nanoseconds(\(ns))"
    }

    /// The expression closure at `i` over the upstream's values: `{ $0 * 10 }`, and its result kind.
    func closure(_ i: Int, arity: Int = 1, kinds: [ValueKind]? = nil, allowsNil: Bool = false) -> (text: String, kind: ValueKind) {
        guard has(i), case .closure(let c) = stage.arguments[i]!.value, case .expression(let e) = c.body else { return ("{ nil }", .any) }
        return translator.closure(
            e, arity: arity, kinds: kinds ?? Array(repeating: upstream.kind, count: arity), tuple: upstream.pair != nil, allowsNil: allowsNil)
    }

    /// The expression closure at `i` as an expression over `names` (asyncMap's `delay D { … }`, hooks).
    func closureBody(_ i: Int, names: [String], kinds: [ValueKind]) -> (text: String, kind: ValueKind)? {
        guard has(i), case .closure(let c) = stage.arguments[i]!.value, case .expression(let e) = c.body else { return nil }
        return translator.expression(e, names, kinds)
    }

    /// Whether the argument at `i` is a closure.
    func isClosure(_ i: Int) -> Bool {
        if has(i), case .closure = stage.arguments[i]!.value { return true }
        return false
    }

    /// The bare word at `i` (`delay`, `flaky`).
    func word(_ i: Int) -> String? {
        if has(i), case .word(let w) = stage.arguments[i]!.value { return w }
        return nil
    }

    /// `from`'s argument: `[1, 2, 3]` or `(1...6)`, and the element kind.
    func sequence(_ i: Int) -> (text: String, kind: ValueKind) {
        guard has(i), case .expr(let e) = stage.arguments[i]!.value else { return ("[]", .any) }
        if case .range(let lo, let hi) = e.kind {
            let a = translator.expression(lo, scope.names, scope.kinds).text
            let b = translator.expression(hi, scope.names, scope.kinds).text
            return ("(\(a)...\(b))", .int)
        }
        let (text, kind) = translator.expression(e, scope.names, scope.kinds)
        if case .array(let element) = kind { return (text, element) }
        return (text, .any)
    }

    /// Both with `Failure == Error` when either can fail, as Combine's combining operators need.
    func unified(_ other: SwiftCode) -> (SwiftCode, SwiftCode) {
        upstream.fails || other.fails ? (upstream.failing, other.failing) : (upstream, other)
    }

    /// The publisher argument at `i` (a nested pipeline or a binding), as code with `expected` values.
    func publisher(_ i: Int, expected: ValueKind? = nil) -> SwiftCode {
        switch stage.nested[i] {
        case .pipeline(let p)?: return translator.pipeline(p, scope: scope, expected: expected ?? kind)
        case .binding(let name, let shape)?:
            let code = translator.bindingCode(name, shape: shape)
            // A binding that sends no value (`let down = fail "down"`) is `Never` in Swift; where a
            // pipeline of another kind takes it (`append down`), Combine wants one Output, and a
            // `Never` can become any type: a map that can never run.
            let wanted = expected ?? kind
            guard code.kind == .nothing, wanted != .nothing, code.pair == nil else { return code }
            return code.then(".map { never -> \(wanted.swiftName) in switch never {} }", kind: wanted)
        case .choice(let c)?: return translator.choice(c, scope: scope, expected: expected ?? kind, erase: true)
        case nil: return translator.unfaithful("a publisher argument is missing", kind: kind)
        }
    }

    /// The pipeline closure at `i` as a Swift closure whose parameter stands for `$0`:
    /// `{ value in [value, value * 10].publisher }`. `parameter` names it in Swift; `dollar` is how
    /// `$0` is read from it (`String(describing: error)` for `catch`); `kind` is what `$0` holds.
    func pipelineClosure(_ i: Int, parameter: String, dollar: String? = nil, kind dollarKind: ValueKind, expected: ValueKind? = nil, failing: Bool = false) -> (
        text: String, code: SwiftCode
    ) {
        let name = scope.depth == 0 ? parameter : parameter + String(scope.depth + 1)
        let inner = SwiftScope(names: [dollar.map { $0.replacingOccurrences(of: "PARAM", with: name) } ?? name], kinds: [dollarKind], depth: scope.depth + 1)
        var code: SwiftCode
        let erase: Bool
        switch stage.nested[i] {
        case .pipeline(let p)?:
            code = translator.pipeline(p, scope: inner, expected: expected ?? kind)
            erase = false
        case .choice(let c)?:
            code = translator.choice(c, scope: inner, expected: expected ?? kind, erase: true, failing: failing)
            erase = true
        case .binding(let b, let shape)?:
            code = translator.bindingCode(b, shape: shape)
            erase = false
        case nil:
            return ("{ _ in }", translator.unfaithful("a pipeline closure is missing", kind: kind))
        }
        if failing { code = code.failing }
        let text = code.rendered(indent: "    ")
        let uses = text.contains(name)
        let signature = erase ? "\(uses ? name : "_") -> \(code.publisherType) in" : (uses ? "\(name) in" : "_ in")
        if parameter.isEmpty { return (text.contains("\n") ? "{\n    \(text)\n}" : "{ \(text) }", code) }
        if text.contains("\n") { return ("{ \(signature)\n    \(text)\n}", code) }
        return ("{ \(signature) \(text) }", code)
    }

    /// The same values, `.part` appended.
    func then(_ part: String, kind: ValueKind? = nil, fails: Bool? = nil) -> SwiftCode { upstream.then(part, kind: kind, fails: fails) }

    /// A helper this code needs, emitted once with it.
    func needs(_ helper: SwiftHelper) { translator.helpers.insert(helper) }

    /// A declaration the statement needs before its pipeline (a `flaky` counter); its name.
    func declare(_ prefix: String, _ text: (String) -> String) -> String { translator.declare(prefix, text) }

    /// The stage has no faithful Swift form: a comment at its spot, saying why.
    func unfaithful(_ reason: String) -> SwiftCode {
        translator.problems.append(reason)
        return upstream.parts.isEmpty
            ? SwiftCode("/* no faithful Swift form: \(reason) */", kind: kind, fails: shape.canFail)
            : upstream.then(" /* no faithful Swift form: \(reason) */", kind: kind)
    }
}

/// Translates checked statements to Swift, collecting the helpers and declarations they need and
/// the places where there is no faithful form.
final class SwiftTranslator {
    let source: SourceText
    /// Helpers the code uses (emitted once, before it).
    var helpers: Set<SwiftHelper> = []
    /// Declarations the current statement needs before its pipeline.
    var declarations: [String] = []
    /// Why the current statement has no faithful Swift form (empty: it has one).
    var problems: [String] = []
    /// Bindings: the Swift name each language name has now (a rebinding gets a new one) and its code's types.
    var bindings: [String: (identifier: String, kind: ValueKind, fails: Bool, pair: [ValueKind]?)] = [:]
    /// Subjects' value kinds, from the script's sends.
    var subjectKinds: [String: ValueKind] = [:]
    /// The bindings that are channels now (`let c = channel`): their sends await a reader.
    var channels = Set<String>()
    /// The binding a `let` being translated makes (a subject reads its sends' kind by it).
    var currentBinding: String?
    /// The `flaky` counters each binding's code uses: a run resets them (the language counts per run).
    var bindingCounters: [String: [String]] = [:]
    /// The counters of bindings the current statement uses.
    var usedCounters: [String] = []
    /// Background pipelines (`… &`) started so far: the program numbers them as plumb's jobs.
    var jobs = 0
    /// Bindings with no faithful Swift form: uses of them have none either.
    var brokenBindings: Set<String> = []
    /// Some code crossed to an async sequence: the program imports `ReactiveAsync` too.
    var usesAsync = false
    private var used: Set<String> = []
    /// What `declare` made for the current statement.
    var declared: [String] = []
    /// Set before translating a pipeline: its top-level stages' code, one per stage, is kept in
    /// `stageCodes` (`:type` shows the Swift types of the code `:swift` writes).
    var recordsStages = false
    private(set) var stageCodes: [SwiftCode] = []

    /// Keeps `name` from being made by `fresh` (a binding the session already has).
    func reserve(_ name: String) { used.insert(name) }

    /// A subject's value kind: its sends' common kind (`Int` when nothing is sent).
    func subjectKind(initial: ValueKind? = nil) -> ValueKind {
        let sent = currentBinding.flatMap { subjectKinds[$0] }
        switch (initial, sent) {
        case (let i?, let s?): return i.merged(s)
        case (let i?, nil): return i
        case (nil, let s?): return s
        case (nil, nil): return .int
        }
    }

    init(source: SourceText) {
        self.source = source
    }

    /// A new identifier starting with `prefix` (`flaky1`, `d2`).
    func fresh(_ prefix: String, numbered: Bool = true) -> String {
        if !numbered, !used.contains(prefix) {
            used.insert(prefix)
            return prefix
        }
        var n = numbered ? 1 : 2
        while used.contains("\(prefix)\(n)") { n += 1 }
        used.insert("\(prefix)\(n)")
        return "\(prefix)\(n)"
    }

    func declare(_ prefix: String, _ text: (String) -> String) -> String {
        let name = fresh(prefix)
        declarations.append(text(name))
        declared.append(name)
        return name
    }

    func expression(_ e: Expr, _ names: [String], _ kinds: [ValueKind], allowsNil: Bool = false) -> (text: String, kind: ValueKind) {
        var x = SwiftExpressions(names: names, kinds: kinds, allowsNil: allowsNil)
        let result = x.translate(e)
        problems += x.problems
        return result
    }

    /// `{ $0 * 10 }`; with named parameters when the body does not use every argument (`{ _ in 1 }`).
    func closure(_ e: Expr, arity: Int, kinds: [ValueKind], tuple: Bool = false, allowsNil: Bool = false) -> (text: String, kind: ValueKind) {
        if tuple { problems.append("$0 is a Swift tuple here; the language's [a, b] is an array") }
        let highest = e.highestDollar
        if highest == arity - 1 {
            let (text, kind) = expression(e, (0..<arity).map { "$\($0)" }, kinds, allowsNil: allowsNil)
            return ("{ \(text) }", kind)
        }
        let names = (0..<arity).map { i in i <= highest ? "v\(i)" : "_" }
        let (text, kind) = expression(e, (0..<arity).map { "v\($0)" }, kinds, allowsNil: allowsNil)
        return ("{ \(names.joined(separator: ", ")) in \(text) }", kind)
    }

    func unfaithful(_ reason: String, kind: ValueKind) -> SwiftCode {
        problems.append(reason)
        return SwiftCode("/* no faithful Swift form: \(reason) */", kind: kind, fails: false)
    }

    /// A pipeline's publisher code. `expected` is the kind its values must have in Swift where its
    /// own stages know none (`empty` merged into Ints is `Empty<Int, Never>()`).
    /// `crossesBack`: a pipeline that ends on the async side becomes a publisher again
    /// (`.publisher`), as the language's does where a publisher is wanted (a binding, an argument);
    /// a statement's own pipeline is iterated instead.
    func pipeline(_ p: CheckedPipeline, scope: SwiftScope, expected: ValueKind?, crossesBack: Bool = true) -> SwiftCode {
        let hint = expected ?? Self.hint(p)
        var code = SwiftCode("", kind: hint, fails: false)
        code.parts = []
        // Said once, where the mixed kinds start.
        var mixedBefore = false
        let recording = recordsStages
        recordsStages = false
        defer { recordsStages = recording }
        for (i, stage) in p.stages.enumerated() {
            defer { if recording { stageCodes.append(code) } }
            let reported = problems.count
            switch stage.target {
            case .binding(let name) where stage.side == .async:
                // A channel's reader: its sends must each wait in a task for it.
                code = unfaithful(
                    "'\(name)' is a channel: :swift does not write a channel's readers yet (each send awaits a reader in a task of its own)",
                    kind: stage.shape.kind)
            case .binding(let name):
                code = bindingCode(name, shape: stage.shape)
            case .entry(let index):
                let entry = Catalog.table[index]
                let expectedHere = i == 0 ? (expected ?? Self.hint(p)) : hint
                // A stage that joins its argument's values to upstream's (`replaceEmpty "x"`,
                // `append …`) after a source of no values (`let none = marble "-|"`): Combine
                // wants one Output, and a `Never` becomes the argument's type by a map that never runs.
                if entry.joinsArgument != nil, code.kind == .nothing, code.pair == nil, stage.shape.kind != .nothing,
                    !Self.isMixed(stage.shape.kind), !code.isSequence
                {
                    code = code.then(".map { never -> \(stage.shape.kind.swiftName) in switch never {} }", kind: stage.shape.kind)
                }
                let input = SwiftStage(translator: self, stage: stage, upstream: code, scope: scope, expected: expectedHere)
                if stage.side == .async || entry.crossing != nil {
                    code = AsyncSwift.translate(entry, input)
                } else if let translate = entry.swift {
                    code = translate(input)
                } else {
                    code = input.unfaithful("'\(entry.name)' has no Swift translation")
                    continue
                }
                // Where the checker joined kinds no one Swift type holds (`just 1 | append 2.5`),
                // the Swift cannot claim upstream's type: take the checker's, so it is said below.
                if entry.joinsArgument != nil, code.pair == nil, Self.isMixed(stage.shape.kind), !Self.isMixed(code.kind) {
                    code.kind = stage.shape.kind
                }
            }
            // A stage that said why it has no faithful form has said enough.
            if problems.count > reported { mixedBefore = true }
            if code.pair == nil, Self.isMixed(code.kind), !mixedBefore {
                mixedBefore = true
                problems.append("values of mixed kinds (Swift's Output must be one type)")
                code = code.then(" /* no faithful Swift form: values of mixed kinds */")
            }
        }
        if crossesBack, code.isSequence { code = AsyncSwift.crossBack(code) }
        // `ignoreOutput` is `Never` in Swift; where Ints are expected (`append (… | ignoreOutput)`) say so.
        if let expected, code.kind == .nothing, expected != .nothing {
            code = code.then(".map { never -> \(expected.swiftName) in switch never {} }", kind: expected)
        }
        return code
    }

    /// A binding used as a publisher.
    func bindingCode(_ name: String, shape: Shape) -> SwiftCode {
        if brokenBindings.contains(name) { problems.append("'\(name)' has no faithful Swift form") }
        for counter in bindingCounters[name] ?? [] where !usedCounters.contains(counter) { usedCounters.append(counter) }
        if let b = bindings[name] { return SwiftCode(b.identifier, kind: b.kind, fails: b.fails, pair: b.pair) }
        let kind = shape.kind
        return SwiftCode(name, kind: kind, fails: shape.canFail)
    }

    /// `cond ? (a) : (b)` over publishers: a Swift ternary of type-erased publishers.
    func choice(_ c: CheckedChoice, scope: SwiftScope, expected: ValueKind, erase: Bool, failing: Bool = false) -> SwiftCode {
        let mustFail = failing || c.pipelines.contains { $0.shape.canFail }
        func branch(_ c: CheckedChoice) -> (String, Int) {
            switch c {
            case .pipeline(let p):
                var code = pipeline(p, scope: scope, expected: expected)
                if mustFail { code = code.failing }
                return (code.then(".eraseToAnyPublisher()").rendered(), 1000)
            case .choice(let condition, _, let yes, let no):
                let (test, kind) = expression(condition, scope.names, scope.kinds)
                if kind != .bool { problems.append("a condition must be a Bool, not \(kind.swiftName)") }
                let (a, _) = branch(yes)
                let (b, _) = branch(no)
                return ("\(test) ? \(a) : \(b)", 100)
            }
        }
        let (text, _) = branch(c)
        return SwiftCode(text, kind: expected, fails: mustFail)
    }

    /// The kind a pipeline of `nothing` kinds should carry: the first stage that knows one, or a
    /// value argument's (`empty | replaceEmpty 0`), or `Never`.
    static func hint(_ p: CheckedPipeline) -> ValueKind {
        for stage in p.stages where stage.shape.kind != .nothing { return stage.shape.kind }
        // A source's own arguments say nothing about its values (`fail "boom"` emits none).
        for stage in p.stages.dropFirst() {
            let parameters = stage.entry.map { $0.overloads[stage.overload] } ?? []
            for (i, a) in stage.arguments.enumerated() where i < parameters.count && parameters[i].kind == .value {
                if case .expr(let e)? = a?.value, !e.usesDollar {
                    let k = ExpressionKinds.infer(e, []).kind
                    if k != .any && k != .nothing && k != .null { return k }
                }
            }
        }
        return .nothing
    }

    static func isMixed(_ kind: ValueKind) -> Bool {
        switch kind {
        case .any, .null: true
        case .array(let e): isMixed(e)
        default: false
        }
    }
}

/// A helper function or type a translation uses; each is emitted once, before the code.
enum SwiftHelper: String, Sendable, Hashable, CaseIterable, Comparable {
    case pipeError, queue, flaky, completionMessage, marble, stream

    static func < (a: SwiftHelper, b: SwiftHelper) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}
