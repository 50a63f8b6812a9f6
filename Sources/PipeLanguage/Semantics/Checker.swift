/// Resolves names, matches arguments against the catalog's signatures, validates constant
/// arguments and infers each stage's shape, collecting diagnostics. Each nested pipeline is
/// checked exactly once, where its argument is matched; the result is stored in the stage.
struct Checker {
    let source: SourceText
    var bindings: [String: BindingInfo]
    /// Names whose `let` in this text had errors, with where the name is: a use says so instead
    /// of "unknown", with a note pointing at that `let`.
    var failedBindings: [String: Span] = [:]
    var diagnostics: [Diagnostic] = []
    /// How many pipelines this checker (and its trial checkers) checked: linear in the text.
    var pipelinesChecked = 0

    init(source: SourceText, bindings: [String: BindingInfo]) {
        self.source = source
        self.bindings = bindings
    }

    mutating func error(_ message: Message, _ span: Span, notes: [Diagnostic.Note] = [], help: String? = nil, fixIts: [FixIt] = []) {
        diagnostics.append(source.diagnostic(message, at: span, notes: notes, help: help, fixIts: fixIts))
    }

    /// An error about a misspelt name, with `did you mean …?` and its fix-it when one is close.
    mutating func error(_ message: Message, _ span: Span, suggesting name: String, among candidates: [String]) {
        if let suggestion = Suggestions.closest(to: name, among: candidates) {
            error(message, span, help: "did you mean '\(suggestion)'?", fixIts: [source.replacing(span, with: suggestion)])
        } else {
            error(message, span)
        }
    }

    /// An unknown operator, with the closest name on its side (`did you mean 'adjacentPairs'?`
    /// after `values`); when only a name on the other side is close, the fix-it crosses to it
    /// (`publisher | retry`), unless the stage before is the crossing itself (that would cross twice).
    /// A Combine method that is not a stage (`eraseToAnyPublisher`, `store`) says what plumb does
    /// instead, and is taken out with the bar before it when the pipeline means the same without it.
    mutating func unknownOperator(_ stage: Stage, after previous: Stage, side: Side, afterCrossing: Bool) {
        let name = stage.name
        if let combine = CombineNames.entry(named: name) {
            error(.unknownOperator(name), stage.nameSpan, help: combine.instead, fixIts: combine.removable ? [removing(stage, after: previous)] : [])
            return
        }
        let names = Catalog.names(of: .operator) + Catalog.names(of: .terminal)
        let here = names.filter { Catalog.entry(named: $0)?.sides.contains(side) ?? true }
        if Suggestions.closest(to: name, among: here) != nil || Suggestions.closest(to: name, among: names) == nil {
            error(.unknownOperator(name), stage.nameSpan, suggesting: name, among: here)
            return
        }
        guard let other = Suggestions.closest(to: name, among: names) else { return }
        let cross: Side = side == .async ? .publisher : .async
        let help = "did you mean '\(other)'? it has no form on \(side.phrase)"
        if afterCrossing {
            error(.unknownOperator(name), stage.nameSpan, help: help + ": it works before the crossing")
        } else {
            error(
                .unknownOperator(name), stage.nameSpan, help: help + ": cross first with '\(cross.crossingStage)'",
                fixIts: [source.replacing(stage.nameSpan, with: "\(cross.crossingStage) | \(other)")])
        }
    }

    mutating func warning(_ message: Message, _ span: Span) {
        diagnostics.append(source.diagnostic(message, at: span))
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Checks a statement; updates `bindings` for `let` so later statements of the same text see it.
    /// - Returns: the checked statement, or nil when it has errors.
    mutating func check(_ statement: StatementAST) -> CheckedStatement? {
        let mark = diagnostics.count
        let checked = checkStatement(statement)
        return diagnostics[mark...].contains(where: { $0.severity == .error }) ? nil : checked
    }

    private mutating func checkStatement(_ statement: StatementAST) -> CheckedStatement? {
        switch statement.kind {
        case .pipeline(let p, let background):
            return checkSize(checkPipeline(p, dollars: [], nested: false)).map { .run($0, background: background) }
        case .binding(let name, let nameSpan, let p):
            if Catalog.entry(named: name) != nil || ["let", "expect", "true", "false", "nil"].contains(name) {
                error(.reservedBinding(name), nameSpan)
                return nil
            }
            let mark = diagnostics.count
            let checked = checkSize(checkPipeline(p, dollars: [], nested: true))
            if let checked, !diagnostics[mark...].contains(where: { $0.severity == .error }) {
                let isSubject = checked.stages.count == 1 && checked.stages[0].entry?.isSubject == true
                var info = BindingInfo(
                    shape: checked.shape, isSubject: isSubject, text: source.text(p.span), name: source.range(nameSpan), size: checked.size)
                info.isChannel = checked.stages.count == 1 && checked.stages[0].entry?.isChannel == true
                bindings[name] = info
                failedBindings[name] = nil
                return .bind(name: name, checked, info)
            }
            if bindings[name] == nil { failedBindings[name] = nameSpan }
            return nil
        case .send(let subject, let span, let value):
            checkSubject(subject, span)
            // AsyncChannel drops what is sent after finish (its send returns at once): say so here.
            if let binding = bindings[subject], binding.isChannel, binding.isFinished {
                error(.channelSentAfterFinish(subject), span, help: "bind a new channel to send again: `let \(subject) = channel`")
            }
            return constant(value).map { .send(subject: subject, subjectSpan: span, $0) }
        case .finish(let subject, let span):
            checkSubject(subject, span)
            // The statements after it in this text see the channel finished.
            if bindings[subject]?.isChannel == true { bindings[subject]?.isFinished = true }
            return .finish(subject: subject, subjectSpan: span)
        case .fail(let subject, let span, let value):
            checkSubject(subject, span)
            if bindings[subject]?.isChannel == true {
                error(.channelCannotFail(subject), span, help: "end it with `\(subject).finish`")
                return nil
            }
            guard let v = checkConstant(value), case .string(let message) = v else {
                if !hasErrors {
                    error(.wrongArgument("\(subject).fail", "a message string", got: source.text(value.span)), value.span)
                }
                return nil
            }
            return .fail(subject: subject, subjectSpan: span, message: message, messageSpan: value.span)
        case .expect(let e, _):
            return checkExpectation(e, statement.span).map { .expect($0) }
        }
    }

    /// An `expect` line's expectation, evaluated; nil after an error.
    private mutating func checkExpectation(_ e: ExpectAST, _ span: Span) -> Expectation? {
        switch e {
        case .values(let x):
            guard let v = constant(x) else { return nil }
            guard case .array(let items) = v else {
                error(.wrongArgument("expect values", "an array", got: v.description), x.span)
                return nil
            }
            return .values(items)
        case .failed(let x):
            return constant(x).map { .failed($0.plainText) }
        case .count(let x):
            return count(x, "expect count").map { .count($0) }
        case .time(let v):
            return duration(v, span, "expect time").map { .time(.nanoseconds($0)) }
        case .started(let v):
            return duration(v, span, "expect started").map { .started(.nanoseconds($0)) }
        case .marbles(let x, let frame):
            var ns: Int64? = Marbles.defaultFrame
            if let frame {
                ns = duration(frame, span, "expect marbles frame:")
                if ns == 0 { error(.wrongArgument("expect marbles frame:", DurationLiteral.atLeastOneNanosecond, got: "0"), span) }
            }
            let literal = ArgumentValidation(arguments: [Argument(label: nil, value: .expr(x), span: x.span)], source: source).stringLiteral(0)
            if let literal, case .failure(let problem) = MarbleNotation.parse(literal.text) {
                let span = literal.exact ? Span(literal.contents.offset + problem.offset, problem.length) : literal.contents
                error(.invalidMarble(problem.reason), span)
                return nil
            }
            guard let marbles = constant(x), let ns, ns > 0 else { return nil }
            // Spaces align a marble string; they are not frames.
            return .marbles(marbles.plainText.filter { $0 != " " }, frame: .nanoseconds(ns))
        case .subscriptions(let name, let nameSpan, let x):
            if bindings[name] == nil {
                error(.unknownBinding(name), nameSpan, suggesting: name, among: bindings.keys.sorted())
            }
            guard let n = count(x, "expect subscriptions"), bindings[name] != nil else { return nil }
            return .subscriptions(binding: name, count: n)
        case .finished:
            return .finished
        }
    }

    /// A non-negative integer constant (`expect count 3`).
    private mutating func count(_ x: Expr, _ name: String) -> Int? {
        guard let v = checkConstant(x) else { return nil }
        guard case .int(let n) = v, n >= 0 else {
            error(.wrongArgument(name, "a non-negative integer", got: v.description), x.span)
            return nil
        }
        return n
    }

    /// A constant statement argument's value (`s.send 1...3` too: a range is an array here),
    /// or an error at it.
    private mutating func constant(_ e: Expr) -> Value? {
        let mark = diagnostics.count
        if let value = checkConstant(e) { return value }
        guard diagnostics.count == mark else { return nil }
        do {
            return try ExpressionCompiler(source: source).compile(e)(.none)
        } catch {
            let failure =
                (error as? PipelineError)
                ?? PipelineError(message: "cannot evaluate this value", location: source.location(of: e.span.offset))
            self.error(.invalidConstant(failure), e.span)
            return nil
        }
    }

    /// Refuses a pipeline that expands past `Limits.maxExpandedStages`, at the stage where its
    /// running size passes the limit, before anything is built.
    mutating func checkSize(_ checked: CheckedPipeline?) -> CheckedPipeline? {
        guard let checked, checked.size > Limits.maxExpandedStages else { return checked }
        var total = 0
        for stage in checked.stages {
            total = total.addingSaturated(stage.size)
            if total > Limits.maxExpandedStages {
                error(.pipelineTooLarge(checked.size), stage.stage.nameSpan)
                break
            }
        }
        return nil
    }

    mutating func checkSubject(_ name: String, _ span: Span) {
        guard let binding = bindings[name] else {
            let subjects = bindings.filter { $0.value.isSubject || $0.value.isChannel }.map(\.key).sorted()
            error(.unknownSubject(name), span, suggesting: name, among: subjects)
            return
        }
        if !binding.isSubject && !binding.isChannel {
            error(.notSubject(name), span, notes: [source.note(Self.boundHere(name), at: binding.name)])
        }
    }

    /// Evaluates an argument that may not use `$n`; reports problems.
    @discardableResult
    mutating func checkConstant(_ e: Expr) -> Value? {
        if e.usesDollar {
            error(.dollarOutsideClosure(max(0, e.highestDollar)), e.span)
            return nil
        }
        if case .range = e.kind { return nil }
        do {
            return try ExpressionCompiler(source: source).compile(e)(.none)
        } catch let failure as PipelineError {
            error(.invalidConstant(failure), e.span)
        } catch {}
        return nil
    }

    // MARK: pipelines

    mutating func checkPipeline(_ p: PipelineAST, dollars: [ValueKind], nested: Bool) -> CheckedPipeline? {
        pipelinesChecked += 1
        var stages: [CheckedStage] = []
        var terminal = Catalog.sink
        var shape = Shape(kind: .any, canFail: false)
        var ok = true
        var side = Side.publisher
        for (index, stage) in p.stages.enumerated() {
            let name = stage.name
            let isFirst = index == 0
            if isFirst, let binding = bindings[name], Catalog.entry(named: name) == nil {
                if !stage.arguments.isEmpty {
                    error(.bindingTakesNoArguments, stage.arguments[0].span)
                    ok = false
                }
                shape = binding.shape
                // A channel is an async sequence: what follows it is on the async side.
                if binding.isChannel { side = .async }
                stages.append(
                    CheckedStage(stage: stage, target: .binding(name), overload: 0, arguments: [], shape: shape, size: binding.size, side: side))
                continue
            }
            guard let entryIndex = Catalog.byName[name] else {
                ok = false
                if isFirst {
                    if let letSpan = failedBindings[name] {
                        error(.bindingHadErrors(name), stage.nameSpan, notes: [source.note(Self.notBoundHere(name), at: letSpan)])
                    } else if Catalog.names(of: .operator).contains(name) {
                        error(.operatorFirst(name), stage.nameSpan)
                    } else {
                        error(
                            .unknownSource(name), stage.nameSpan, suggesting: name,
                            among: Catalog.names(of: .source) + bindings.keys.sorted())
                    }
                } else {
                    unknownOperator(stage, after: p.stages[index - 1], side: side, afterCrossing: stages.last?.entry?.crossing != nil)
                }
                continue
            }
            let entry = Catalog.table[entryIndex]
            if !isFirst, let crossing = entry.crossing {
                // `values` last on a publisher is still the terminal it always was; anywhere else a
                // crossing is a stage of its own: what follows runs on the other side.
                let endsPipeline = index == p.stages.count - 1 && entry.kind == .terminal
                if !(endsPipeline && side == .publisher) {
                    if let problem = checkCrossing(stage, crossing, side: side, previous: stages.last, in: p) {
                        error(problem.message, stage.nameSpan, help: problem.help, fixIts: problem.fixIts)
                        ok = false
                        continue
                    }
                    var crossed = CheckedStage(
                        stage: stage, target: .entry(entryIndex), overload: 0, arguments: [], shape: shape, input: shape, side: crossing.to)
                    if !stage.arguments.isEmpty {
                        guard let match = matchArguments(entry, stage, upstream: shape, dollars: dollars) else {
                            ok = false
                            continue
                        }
                        crossed.overload = match.overload
                        crossed.arguments = match.arguments
                    }
                    stages.append(crossed)
                    side = crossing.to
                    continue
                }
            }
            if !isFirst, !entry.anyPosition, entry.kind != .source, !entry.sides.contains(side), !(side == .async && entry.name == "sink") {
                let cross = side == .async ? Side.publisher : Side.async
                if let crossing = stages.last, crossing.entry?.crossing != nil, stages.count >= 2 {
                    // Right after the crossing: crossing back would cross twice; stay on this side.
                    let before = stages[stages.count - 2].stage.span
                    let start = before.offset + before.length
                    error(
                        .noFormOnSide(name, side: side), stage.nameSpan,
                        help: "remove '\(crossing.stage.name)': '\(name)' works on the \(cross == .publisher ? "publisher" : "async sequence") before it",
                        fixIts: [source.replacing(Span(start, stage.span.offset - start), with: " | ")])
                } else {
                    error(
                        .noFormOnSide(name, side: side), stage.nameSpan,
                        help: "cross first: `\(cross.crossingStage) | \(source.text(stage.span))`",
                        fixIts: [source.replacing(Span(stage.span.offset, 0), with: cross.crossingStage + " | ")])
                }
                ok = false
                continue
            }
            // `todo` may stand anywhere. (The kind is read into a local first: switching on the
            // computed `entry.kind` with a guard over `entry` crashed the optimiser, 6.3.1.)
            let kind: CatalogEntry.Kind? = entry.anyPosition ? nil : entry.kind
            switch kind {
            case nil: break
            case .source? where !isFirst:
                error(.sourceAfterBar(name), stage.nameSpan)
                ok = false
                continue
            case .operator? where isFirst, .terminal? where isFirst:
                error(.operatorFirst(name), stage.nameSpan)
                ok = false
                continue
            case .terminal?:
                if nested {
                    error(.terminalNested(name), stage.nameSpan)
                    ok = false
                } else if index != p.stages.count - 1 {
                    error(.terminalNotLast(name), stage.nameSpan)
                    ok = false
                }
                terminal = entryIndex
                if !stage.arguments.isEmpty {
                    error(.tooManyArguments(name), stage.arguments[0].span, notes: [Diagnostic.Note(entry.signatureNote)])
                    ok = false
                }
                continue
            default: break
            }
            // `todo` stands for a stage still to write, with whatever arguments the task shows.
            let matched: Match?
            if entry.anyPosition {
                matched = Match(overload: 0, arguments: [], nested: [:], todo: stage.nameSpan)
            } else {
                matched = matchArguments(entry, stage, upstream: shape, dollars: dollars)
            }
            guard let match = matched else {
                ok = false
                continue
            }
            if let validate = entry.validate {
                let problems = validate(ArgumentValidation(arguments: match.arguments, source: source))
                for (message, span) in problems { error(message, span) }
                if !problems.isEmpty {
                    ok = false
                    continue
                }
            }
            if let warning = entry.noEffectUnlessUpstreamFails, !shape.canFail { self.warning(warning(), stage.nameSpan) }
            if let todo = match.todo ?? (entry.anyPosition ? stage.nameSpan : nil) { self.warning(.todoLeft, todo) }
            let input = shape
            let inference = InferenceInput(
                upstream: shape, arguments: match.arguments, overload: match.overload, nested: match.nested, dollars: dollars)
            if match.todo == nil, let i = entry.joinsArgument, i < match.arguments.count, let argument = match.arguments[i],
                input.kind.cannotJoin(inference.joinedKind(i))
            {
                let other = inference.joinedKind(i)
                error(
                    .kindsDoNotJoin(name, upstream: input.kind.swiftName, other: other.swiftName), argument.span,
                    notes: [
                        stages.last.map { source.note(Self.valuesComeFrom(input.kind.swiftName), at: $0.stage.span) },
                        Diagnostic.Note("Combine's \(entry.combine) needs one Output type on both sides"),
                    ].compactMap { $0 },
                    help: Checker.joinHelp(from: input.kind, to: other))
                ok = false
                continue
            }
            // A source that is an async sequence (`timer every 100ms`) starts on the async side.
            if isFirst, let overload = entry.async?.startsOverload, match.overload == overload { side = .async }
            let infer = side == .async ? entry.async?.infer ?? entry.infer : entry.infer
            shape = match.todo != nil ? Shape(kind: .any, canFail: true) : infer(inference)
            let nestedSize = match.nested.values.reduce(0) { total, nested in
                switch nested {
                case .binding(let name, _): total.addingSaturated(bindings[name]?.size ?? 1)
                default: total.addingSaturated(nested.size)
                }
            }
            stages.append(
                CheckedStage(
                    stage: stage, target: .entry(entryIndex), overload: match.overload, arguments: match.arguments,
                    nested: match.nested, shape: shape, input: input, size: 1.addingSaturated(nestedSize), todo: match.todo,
                    side: side))
        }
        return ok ? CheckedPipeline(stages: stages, terminal: terminal, ast: p) : nil
    }

    /// Why a crossing stage cannot stand here (right after another crossing, or crossing to the
    /// side the pipeline is already on), with the fix-it that removes it; nil when it can.
    func checkCrossing(_ stage: Stage, _ crossing: Crossing, side: Side, previous: CheckedStage?, in p: PipelineAST)
        -> (message: Message, help: String, fixIts: [FixIt])?
    {
        let previousCrossing = previous.flatMap { $0.entry?.crossing == nil ? nil : $0 }
        guard previousCrossing != nil || crossing.to == side else { return nil }
        let removal = removing(stage, after: previous?.stage)
        let message = Message.crossingTwice(stage.name, after: previousCrossing?.stage.name, side: crossing.to)
        return (message, "remove '\(stage.name)'", [removal])
    }

    /// The fix-it that takes `stage` out with its bar, ` | NAME …`: from the end of the stage
    /// before it to the end of this one (the stage alone when it is first).
    func removing(_ stage: Stage, after previous: Stage?) -> FixIt {
        guard let before = previous?.span else { return source.replacing(stage.span, with: "") }
        let start = before.offset + before.length
        return source.replacing(Span(start, stage.span.offset + stage.span.length - start), with: "")
    }

    // MARK: arguments

    /// How to make two kinds join: convert the argument's side to upstream's kind where there is a
    /// conversion, else say both must agree.
    static func joinHelp(from upstream: ValueKind, to other: ValueKind) -> String {
        switch (upstream, other) {
        case (.string, _): return "make both sides String, e.g. `map { String($0) }` on the other side, or give a String"
        case (_, .string):
            return "make both sides String: `map { String($0) }` before this stage, or give \(upstream.swiftName == "Int" ? "an" : "a") \(upstream.swiftName)"
        default: return "give a value of upstream's kind (\(upstream.swiftName)), or map one side first so both agree"
        }
    }

    /// The overload that fits: its index, the arguments by parameter index, and the checked
    /// publishers among them.
    struct Match {
        var overload: Int
        var arguments: [Argument?]
        var nested: [Int: NestedPublisher]
        /// The first `todo` among the arguments.
        var todo: Span?
    }

    /// `todo` as an argument (`take todo`) or a closure's body (`map { todo }`): the workshop's
    /// placeholder, accepted for any parameter.
    static func todoSpan(_ argument: Argument) -> Span? {
        switch argument.value {
        case .word("todo"): return argument.span
        case .closure(let c):
            if case .pipeline(let p) = c.body, p.stages.count == 1, p.stages[0].name == "todo", p.stages[0].arguments.isEmpty {
                return p.stages[0].nameSpan
            }
            return nil
        default: return nil
        }
    }

    /// Which overload fits; reports the problem when none does.
    mutating func matchArguments(_ entry: CatalogEntry, _ stage: Stage, upstream: Shape, dollars: [ValueKind]) -> Match? {
        var firstFailure: [Diagnostic]? = nil
        // Prefer the overload whose labels match, so errors are about the intended form.
        let firstLabel = stage.arguments.first?.label
        let order =
            entry.overloads.count == 1
            ? [0]
            : entry.overloads.indices.sorted { a, b in
                let la = entry.overloads[a].first?.label == firstLabel && firstLabel != nil
                let lb = entry.overloads[b].first?.label == firstLabel && firstLabel != nil
                return la && !lb
            }
        for overload in order {
            var trial = self
            trial.diagnostics = []
            trial.pipelinesChecked = 0
            let result = trial.match(entry, entry.overloads[overload], stage, upstream: upstream, dollars: dollars)
            pipelinesChecked += trial.pipelinesChecked
            if let (slots, nested) = result, !trial.hasErrors {
                diagnostics += trial.diagnostics
                let todo = slots.lazy.compactMap { $0.flatMap(Checker.todoSpan) }.first
                return Match(overload: overload, arguments: slots, nested: nested, todo: todo)
            }
            if firstFailure == nil { firstFailure = trial.diagnostics }
        }
        diagnostics += firstFailure ?? []
        return nil
    }

    mutating func match(
        _ entry: CatalogEntry, _ params: [Parameter], _ stage: Stage, upstream: Shape, dollars: [ValueKind]
    ) -> ([Argument?], [Int: NestedPublisher])? {
        let name = stage.name
        let signature = entry.signatureNote
        var slots = [Argument?](repeating: nil, count: params.count)
        if params.first?.kind == .step {
            if let first = stage.arguments.first, Checker.todoSpan(first) != nil { return ([first], [:]) }
            // Every word of the step is kept (`delay 10 { "a" }`): inference reads the closure's kind.
            return checkStep(stage, upstream: upstream, dollars: dollars) ? (stage.arguments.map { $0 }, [:]) : nil
        }
        for argument in stage.arguments {
            if let label = argument.label {
                guard let i = params.firstIndex(where: { $0.label == label }), slots[i] == nil else {
                    let labels = params.compactMap(\.label)
                    if slots.indices.contains(where: { params[$0].label == label }) || Suggestions.closest(to: label, among: labels) == nil {
                        error(.unknownLabel(name, label), argument.span, notes: [Diagnostic.Note(signature)])
                    } else if let suggestion = Suggestions.closest(to: label, among: labels) {
                        let labelSpan = Span(argument.span.offset, label.utf8.count)
                        error(
                            .unknownLabel(name, label), argument.span, notes: [Diagnostic.Note(signature)],
                            help: "did you mean '\(suggestion):'?", fixIts: [source.replacing(labelSpan, with: suggestion)])
                    }
                    return nil
                }
                slots[i] = argument
            } else {
                // A `todo` may stand for any argument still missing, labelled ones too.
                let isTodo = Checker.todoSpan(argument) != nil
                let positional = params.indices.first(where: { slots[$0] == nil && !params[$0].labelRequired })
                guard let i = positional ?? (isTodo ? params.indices.first(where: { slots[$0] == nil }) : nil) else {
                    error(.tooManyArguments(name), argument.span, notes: [Diagnostic.Note(signature)])
                    return nil
                }
                slots[i] = argument
            }
        }
        let mark = diagnostics.count
        var nested: [Int: NestedPublisher] = [:]
        for (i, param) in params.enumerated() {
            guard let argument = slots[i], Checker.todoSpan(argument) == nil else { continue }
            nested[i] = checkArgument(argument, param, name: name, upstream: upstream, dollars: dollars, signature: signature)
        }
        // Only errors reject the overload; a nested pipeline's warnings (`merge (just 1 | retry 1)`) do not.
        if diagnostics[mark...].contains(where: { $0.severity == .error }) { return nil }
        for (i, param) in params.enumerated() where slots[i] == nil && !param.optional {
            error(.missingArgument(name, param.placeholder), stage.nameSpan, notes: [Diagnostic.Note(signature)])
            return nil
        }
        return (slots, nested)
    }

    /// Checks one argument against its parameter; a publisher argument's checked pipeline (or the
    /// binding it names) is returned, so no later stage checks it again.
    mutating func checkArgument(
        _ argument: Argument, _ param: Parameter, name: String, upstream: Shape, dollars: [ValueKind], signature: String
    ) -> NestedPublisher? {
        let text = source.text(argument.span)
        let got = argument.label != nil ? String(text.drop(while: { $0 != ":" }).dropFirst().drop(while: { $0 == " " })) : text
        func expect(_ what: String) -> NestedPublisher? {
            error(.wrongArgument(name, what, got: got), argument.span, notes: [Diagnostic.Note(signature)])
            return nil
        }
        func value(_ e: Expr) -> Value? {
            if e.usesDollar {
                if dollars.isEmpty { error(.dollarOutsideClosure(max(0, e.highestDollar)), e.span) }
                return nil
            }
            return checkConstant(e)
        }
        func pipeline(_ p: PipelineAST, _ kinds: [ValueKind]) -> NestedPublisher? {
            checkPipeline(p, dollars: kinds, nested: true).map(NestedPublisher.pipeline)
        }
        switch param.kind {
        case .count, .int, .positive:
            let what = param.kind == .int ? "an integer" : param.kind == .positive ? "a positive integer" : "a non-negative integer"
            guard case .expr(let e) = argument.value else { return expect(what) }
            guard let v = value(e) else { return nil }
            switch (param.kind, v) {
            case (.count, .int(let n)) where n >= 0: return nil
            case (.positive, .int(let n)) where n >= 1: return nil
            case (.int, .int): return nil
            default: return expect(what)
            }
        case .value:
            guard case .expr(let e) = argument.value else {
                if case .word(let w) = argument.value {
                    error(.unknownName(w, expectedBy: name), argument.span, notes: [Diagnostic.Note(signature)])
                    return nil
                }
                return expect("a value")
            }
            _ = value(e)
        case .string:
            guard case .expr(let e) = argument.value else { return expect("a string") }
            if let v = value(e), case .string = v {} else if !e.usesDollar { return expect("a string") }
        case .bool:
            guard case .expr(let e) = argument.value else { return expect("true or false") }
            if let v = value(e), case .bool = v {} else if !e.usesDollar { return expect("true or false") }
        case .duration:
            _ = duration(argument.value, argument.span, name, signature: signature, dollars: dollars)
        case .period:
            if duration(argument.value, argument.span, name, signature: signature, dollars: dollars) == 0 {
                return expect(DurationLiteral.atLeastOneNanosecond)
            }
        case .message:
            switch argument.value {
            case .expr(let e):
                if let v = value(e), case .string = v {} else if !e.usesDollar { return expect("a message string or a closure such as { \"got \\($0)\" }") }
            case .closure(let c):
                guard case .expression(let e) = c.body else { return expect("a message string or a closure such as { \"got \\($0)\" }") }
                if e.highestDollar >= 1 { error(.dollarOutOfRange(name, e.highestDollar, arity: 1), dollarSpan(e, e.highestDollar) ?? e.span) }
            default:
                return expect("a message string or a closure such as { \"got \\($0)\" }")
            }
        case .closure(let arity):
            guard case .closure(let c) = argument.value, case .expression(let e) = c.body else {
                return expect("a closure such as { \(param.placeholder) }")
            }
            if e.highestDollar >= arity {
                error(.dollarOutOfRange(name, e.highestDollar, arity: arity), dollarSpan(e, e.highestDollar) ?? e.span)
            } else if let (problem, span) = ExpressionCheck.problem(in: e, dollars: arity == 1 ? [upstream.kind] : [.any, upstream.kind]) {
                error(problem, span)
            }
        case .pipelineClosure(let input):
            guard case .closure(let c) = argument.value else { return expect("a pipeline in braces, such as { just $0 }") }
            switch c.body {
            case .pipeline(let p): return pipeline(p, input.dollarKinds(upstream: upstream))
            case .choice(let choice):
                return checkChoice(choice, name: name, dollars: input.dollarKinds(upstream: upstream)).map(NestedPublisher.choice)
            case .expression: return expect("a pipeline in braces, such as { just $0 }")
            }
        case .publisher:
            switch argument.value {
            case .pipeline(let p): return pipeline(p, dollars)
            case .closure(let c):
                guard case .pipeline(let p) = c.body else { return expect("a publisher, such as (just 1)") }
                return pipeline(p, dollars)
            case .word(let w):
                guard let binding = bindings[w] else {
                    if let letSpan = failedBindings[w] {
                        error(.bindingHadErrors(w), argument.span, notes: [source.note(Self.notBoundHere(w), at: letSpan)])
                    } else {
                        error(.unknownBinding(w), argument.span, suggesting: w, among: bindings.keys.sorted())
                    }
                    return nil
                }
                return .binding(w, binding.shape)
            default: return expect("a publisher in parentheses, such as (just 1)")
            }
        case .keyword(let w):
            guard case .word(w) = argument.value else { return expect("'\(w)'") }
        case .sequence:
            guard case .expr(let e) = argument.value else { return expect("an array or a range") }
            if case .range(let lo, let hi) = e.kind {
                if let a = value(lo), let b = value(hi) {
                    guard case .int(let x) = a, case .int(let y) = b else { return expect("a range of integers") }
                    if let problem = Ranges.problem(x, y) { error(problem, e.span) }
                }
                return nil
            }
            if let v = value(e) {
                if case .array = v {} else { return expect("an array or a range") }
            }
        case .step:
            break
        }
        return nil
    }

    /// `cond ? a : b` over publishers: the condition is an expression over `$0` (a Bool, where its
    /// kind is known), each branch a pipeline checked like any nested one.
    mutating func checkChoice(_ choice: PublisherChoice, name: String, dollars: [ValueKind]) -> CheckedChoice? {
        switch choice {
        case .pipeline(let p):
            return checkPipeline(p, dollars: dollars, nested: true).map(CheckedChoice.pipeline)
        case .choice(let condition, let yes, let no):
            if condition.highestDollar >= max(1, dollars.count) {
                error(.dollarOutOfRange(name, condition.highestDollar, arity: max(1, dollars.count)), condition.span)
            } else if let (problem, span) = ExpressionCheck.problem(in: condition, dollars: dollars) {
                error(problem, span)
            } else {
                let kind = ExpressionKinds.infer(condition, dollars).kind
                if kind != .bool && kind != .any { error(.choiceConditionNotBool(kind.swiftName), condition.span) }
            }
            let a = checkChoice(yes, name: name, dollars: dollars)
            let b = checkChoice(no, name: name, dollars: dollars)
            guard let a, let b else { return nil }
            let inferred = ExpressionKinds.infer(condition, dollars)
            return .choice(condition, conditionCanFail: inferred.canFail || inferred.kind != .bool, a, b)
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
        let notes = signature.map { [Diagnostic.Note($0)] } ?? []
        switch v {
        case .duration(let ns): return ns
        case .expr(let e):
            if e.usesDollar {
                if dollars.isEmpty { error(.dollarOutsideClosure(max(0, e.highestDollar)), e.span) }
                return nil
            }
            guard let value = checkConstant(e) else { return nil }
            switch Durations.nanoseconds(fromMilliseconds: value) {
            case .success(let ns): return ns
            case .failure(let problem):
                error(.wrongArgument(name, problem.text, got: source.text(e.span)), e.span, notes: notes)
                return nil
            }
        default:
            error(.wrongArgument(name, "a duration such as 100ms", got: source.text(span)), span, notes: notes)
            return nil
        }
    }

    /// asyncMap's closure: `$0` only, and operations its kind allows.
    mutating func checkStepClosure(_ e: Expr, upstream: Shape) {
        if e.highestDollar >= 1 {
            error(.dollarOutOfRange("asyncMap", e.highestDollar, arity: 1), e.span)
        } else if let (problem, span) = ExpressionCheck.problem(in: e, dollars: [upstream.kind]) {
            error(problem, span)
        }
    }

    /// asyncMap's step: `delay D [{ expr }]`, `flaky N`, `fail "message"`, or `{ expr }`.
    mutating func checkStep(_ stage: Stage, upstream: Shape, dollars: [ValueKind]) -> Bool {
        let args = stage.arguments
        let usage = "asyncMap takes delay D, delay D { expr }, flaky N, fail \"message\" or { expr }"
        guard let first = args.first else {
            error(.missingStep, stage.nameSpan, notes: [Diagnostic.Note(usage)])
            return false
        }
        if let label = first.label {
            error(.unknownLabel("asyncMap", label), first.span, notes: [Diagnostic.Note(usage)])
            return false
        }
        let mark = diagnostics.count
        switch first.value {
        case .closure(let c):
            guard case .expression(let e) = c.body else {
                error(.stepClosureNotExpression, c.span, notes: [Diagnostic.Note(usage)])
                return false
            }
            checkStepClosure(e, upstream: upstream)
            if args.count > 1 { error(.tooManyArguments("asyncMap"), args[1].span, notes: [Diagnostic.Note(usage)]) }
        case .word("delay"):
            guard args.count >= 2 else {
                error(.stepNeedsArgument("asyncMap delay needs a duration"), first.span, notes: [Diagnostic.Note(usage)])
                return false
            }
            _ = duration(args[1].value, args[1].span, "asyncMap delay", signature: usage, dollars: dollars)
            if args.count >= 3 {
                guard case .closure(let c) = args[2].value, case .expression(let e) = c.body else {
                    error(.wrongArgument("asyncMap delay", "a closure such as { $0 * 2 } after the duration", got: source.text(args[2].span)), args[2].span)
                    return false
                }
                checkStepClosure(e, upstream: upstream)
            }
            if args.count > 3 { error(.tooManyArguments("asyncMap"), args[3].span, notes: [Diagnostic.Note(usage)]) }
        case .word("flaky"):
            guard args.count == 2, case .expr(let e) = args[1].value else {
                error(
                    .stepNeedsArgument("asyncMap flaky needs a count, as in asyncMap flaky 2"), args.count > 2 ? args[2].span : first.span,
                    notes: [Diagnostic.Note(usage)])
                return false
            }
            if let v = e.usesDollar ? nil : checkConstant(e) {
                if case .int(let n) = v, n >= 0 {} else { error(.wrongArgument("asyncMap flaky", "a non-negative integer", got: source.text(e.span)), e.span) }
            }
        case .word("fail"):
            guard args.count == 2, case .expr(let e) = args[1].value else {
                error(
                    .stepNeedsArgument("asyncMap fail needs a message, as in asyncMap fail \"boom\""), args.count > 2 ? args[2].span : first.span,
                    notes: [Diagnostic.Note(usage)])
                return false
            }
            _ = e.usesDollar ? nil : checkConstant(e)
        case .word(let w):
            if let suggestion = Suggestions.closest(to: w, among: ["delay", "flaky", "fail"]) {
                error(
                    .unknownStep(w), first.span, notes: [Diagnostic.Note(usage)], help: "did you mean '\(suggestion)'?",
                    fixIts: [source.replacing(first.span, with: suggestion)])
            } else {
                error(.unknownStep(w), first.span, notes: [Diagnostic.Note(usage)])
            }
            return false
        default:
            error(.invalidStep(source.text(first.span)), first.span, notes: [Diagnostic.Note(usage)])
            return false
        }
        return !diagnostics[mark...].contains { $0.severity == .error }
    }
}
