/// Whole statements and scripts as Swift: a pipeline, a `let`, a send; `expect` lines and
/// commands as comments; and the `--program` form that runs each pipeline to completion.
extension SwiftTranslator {
    /// What one statement becomes.
    struct StatementCode {
        /// Declarations and code, without helpers.
        var lines: [String]
        /// Why it has no faithful Swift form (empty when it has one).
        var problems: [String]
    }

    /// The Swift for one statement. `program`: pipelines are run and their events printed;
    /// `pasteable`: a pipeline ends in a `sink` that prints, stored in a cancellable.
    func statement(_ ast: StatementAST, checked: CheckedPipeline?, program: Bool, pasteable: Bool = false) -> StatementCode {
        declarations = []
        declared = []
        usedCounters = []
        problems = []
        var lines: [String] = []
        switch ast.kind {
        case .pipeline(_, let background):
            guard let checked else { return StatementCode(lines: ["// " + source.text(ast.span)], problems: []) }
            var code = pipeline(checked, scope: SwiftScope(), expected: nil, crossesBack: false)
            // A terminal other than the implied sink takes a publisher: the sequence crosses back.
            if code.isSequence, checked.terminalEntry.name != "sink" { code = AsyncSwift.crossBack(code) }
            if let terminal = checked.terminalEntry.swift {
                code = terminal(SwiftStage(translator: self, stage: checked.stages.last!, upstream: code, scope: SwiftScope(), expected: code.kind))
            }
            let consume = code.consumption
            let text = code.rendered()
            // A `flaky` counter counts per run: one a binding holds starts again for this one.
            lines += usedCounters.map { "\($0).reset()" }
            if code.isSequence {
                lines += sequenceStatement(code, program: program, background: background)
            } else if program {
                let show =
                    code.pair.map { kinds in
                        ", show: { \"[\" + " + kinds.indices.map { "$0.\($0).pipeText" }.joined(separator: " + \", \" + ") + " + \"]\" }"
                    } ?? ""
                if background && consume == .sink {
                    jobs += 1
                    lines.append("let job\(jobs) = start(\(text), job: \(jobs)\(show))")
                } else {
                    let runner = consume == .values ? "runValues" : consume == .async ? "runAsync" : "run"
                    lines.append("\(runner)(\(text)\(show))")
                }
            } else {
                switch consume {
                case .sink where pasteable:
                    let sink = code.fails ? ".sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })" : ".sink { print($0) }"
                    lines.append("let \(fresh("cancellable", numbered: false)) = \(text)\n    \(sink)")
                case .sink: lines.append(text)
                case .values: lines += ["for try await value in \(text).values {", "    print(value)", "}"]
                case .async:
                    lines.append("let value = try await \(text).async()")
                    if pasteable { lines.append("print(value)") }
                }
            }
        case .binding(let name, _, _):
            guard let checked else { return StatementCode(lines: ["// " + source.text(ast.span)], problems: []) }
            currentBinding = name
            // A channel stays an AsyncChannel (its send and finish are the channel's own).
            let isChannel = checked.stages.count == 1 && checked.stages[0].entry?.isChannel == true
            let code = pipeline(checked, scope: SwiftScope(), expected: nil, crossesBack: !isChannel)
            currentBinding = nil
            let identifier = fresh(name, numbered: false)
            bindings[name] = (identifier, code.kind, code.fails, code.pair)
            bindingCounters[name] = declared + usedCounters
            if !problems.isEmpty { brokenBindings.insert(name) } else { brokenBindings.remove(name) }
            if isChannel { channels.insert(name) } else { channels.remove(name) }
            lines.append("let \(identifier) = \(code.rendered())")
        case .send(let subject, _, let value):
            let text = expression(value, [], []).text
            if channels.contains(subject) { problems.append("'\(subject)' is a channel: its send awaits a reader, which :swift does not write yet") }
            lines.append("\(bindings[subject]?.identifier ?? subject).send(\(text))")
            if brokenBindings.contains(subject) { problems.append("'\(subject)' has no faithful Swift form") }
        case .finish(let subject, _):
            let finish = channels.contains(subject) ? ".finish()" : ".send(completion: .finished)"
            lines.append("\(bindings[subject]?.identifier ?? subject)\(finish)")
            if brokenBindings.contains(subject) { problems.append("'\(subject)' has no faithful Swift form") }
        case .fail(let subject, _, let value):
            helpers.insert(.pipeError)
            let message: String
            if case .literal(let v) = value.kind { message = Value.quote(v.plainText) } else { message = expression(value, [], []).text }
            lines.append("\(bindings[subject]?.identifier ?? subject).send(completion: .failure(PipeError(\(message))))")
            if brokenBindings.contains(subject) { problems.append("'\(subject)' has no faithful Swift form") }
        case .expect:
            return StatementCode(lines: source.text(ast.span).split(separator: "\n").map { "// " + $0 }, problems: [])
        }
        return StatementCode(lines: declarations + lines, problems: problems)
    }

    /// A pipeline that ends on the async side: a task iterating it with `for try await`; in a
    /// program, `runSequence`, which prints its events as plumb does (`value 2`, `finished`). In
    /// the background (`… &`) it crosses back and runs as a job, as plumb's job does.
    private func sequenceStatement(_ code: SwiftCode, program: Bool, background: Bool) -> [String] {
        let show =
            code.pair.map { kinds in
                "show: { \"[\" + " + kinds.indices.map { "$0.\($0).pipeText" }.joined(separator: " + \", \" + ") + " + \"]\" }"
            }
        if program && background {
            jobs += 1
            let text = AsyncSwift.crossBack(code).rendered()
            return ["let job\(jobs) = start(\(text), job: \(jobs)\(show.map { ", " + $0 } ?? ""))"]
        }
        let text = code.rendered(indent: "    ")
        if program {
            return ["runSequence\(show.map { "(" + $0 + ")" } ?? "") {\n    \(text)\n}"]
        }
        let task = fresh("task", numbered: false)
        return [
            "let \(task) = Task {\n    let sequence = \(text)\n    for \(code.fails ? "try " : "")await value in sequence {\n        print(value)\n    }\n}"
        ]
    }

    /// Every send's kind per subject, so `let s = subject` can be `PassthroughSubject<Int, Error>()`.
    func scanSends(_ asts: [StatementAST]) {
        var kinds: [String: [ValueKind]] = [:]
        for ast in asts {
            if case .send(let subject, _, let value) = ast.kind { kinds[subject, default: []].append(ExpressionKinds.infer(value, []).kind) }
        }
        subjectKinds = kinds.mapValues(ValueKind.common)
    }
}

extension Session {
    /// `plumb swift --program`: a whole script as a complete `main.swift` that compiles against
    /// `Reactive`: the helpers, then each statement in order, each pipeline run to completion
    /// before the next and its events printed as `plumb run` prints them without the time column
    /// (`value 20`, `value "a!"`, `finished`, `failed: boom`). A pipeline that never completes is
    /// cancelled after 3 seconds (`cancelled`). A statement with no faithful Swift form is kept as
    /// a comment with the reason, and the program prints `skipped: reason` in its place.
    ///
    /// ```swift
    /// session.swiftProgram(of: "just 1 | map { $0 + 1 }\n", file: "a.pipe")
    /// // .success("// Generated by plumb swift --program from a.pipe.\nimport Foundation\nimport Reactive\n…run(Just(1).map { $0 + 1 })\n")
    /// ```
    ///
    /// - Parameters:
    ///   - text: The script.
    ///   - file: Its name, for diagnostics and the header comment.
    /// - Returns: The program, or the script's errors (`Result` needs an `Error`, so the list is
    ///   wrapped: `SwiftProgramErrors.diagnostics`).
    public func swiftProgram(of text: String, file: String) -> Result<String, SwiftProgramErrors> {
        translateScript(text, file: file, program: true).map { body, helpers, usesAsync in
            let header =
                ["// Generated by plumb swift --program from \(file).", "import Foundation"]
                + (usesAsync ? ["@preconcurrency import Reactive", "import ReactiveAsync"] : ["import Reactive"]) + [""]
            let program = header + [SwiftHelper.text(of: helpers.union([.pipeError])), "", SwiftHelper.runner, "", "// MARK: - Pipelines", ""] + body
            return program.joined(separator: "\n")
        }
    }

    /// `plumb swift FILE`: a whole script as Swift code (not a program): the helpers once, then each
    /// statement in order under its text as a comment. Unlike `swiftTranslation(of:form:)` one statement at a
    /// time, it reads the whole script, so a subject is typed by every send (`s.send 1` →
    /// `PassthroughSubject<Int, Error>()`, then `s.send(1)`) and a rebinding gets a new name.
    ///
    /// ```swift
    /// session.swiftScript(of: "let s = subject\ns | map { $0 * 2 }\ns.send 1\n", file: "s.pipe")
    /// // .success("// let s = subject\nlet s = PassthroughSubject<Int, Error>()\n\n// s | map …\ns.map { $0 * 2 }\n…")
    /// ```
    ///
    /// - Parameters:
    ///   - text: The script.
    ///   - file: Its name, for diagnostics.
    /// - Returns: The code, or the script's errors.
    public func swiftScript(of text: String, file: String) -> Result<String, SwiftProgramErrors> {
        translateScript(text, file: file, program: false).map { body, helpers, _ in
            let helperText = SwiftHelper.text(of: helpers)
            return (helperText.isEmpty ? "" : helperText + "\n\n") + body.joined(separator: "\n")
        }
    }

    /// Each statement of a script as Swift lines, and the helpers they need.
    private func translateScript(_ text: String, file: String, program: Bool) -> Result<([String], Set<SwiftHelper>, Bool), SwiftProgramErrors> {
        // `:` lines are the shell's: they stay in the Swift as comments, where they were.
        let script = ScriptLines(text)
        let (statements, diagnostics) = compile(script.language, file: file)
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { return .failure(SwiftProgramErrors(diagnostics: errors)) }
        let translator = SwiftTranslator(source: SourceText(script.language, file: file))
        for (name, binding) in bindings {
            translator.bindings[name] = (name, binding.info.shape.kind, binding.info.shape.canFail, nil)
            translator.reserve(name)
        }
        translator.scanSends(statements.map(\.ast))
        var body: [String] = []
        var hostLines = script.hostLines[...]
        for statement in statements {
            while let host = hostLines.first, host.line < statement.location.line {
                body += ["// " + host.text, ""]
                hostLines.removeFirst()
            }
            let code = translator.statement(statement.ast, checked: statement.checked, program: program)
            let written = statement.text.split(separator: "\n").map { "// " + $0 }
            if statement.isExpectation {
                body += code.lines
            } else if code.problems.isEmpty || !program {
                body += written + code.lines
            } else {
                let reasons = distinct(code.problems).joined(separator: "; ")
                body +=
                    written + ["// no faithful Swift form: \(reasons)"]
                    + code.lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "// " + $0 }
                body.append("print(\(Value.quote("skipped: " + reasons)))")
            }
            body.append("")
        }
        body += hostLines.flatMap { ["// " + $0.text, ""] }
        if program && translator.jobs > 0 {
            body += ["// The background jobs finish (or are left) before the program ends.", "waitForJobs()", ""]
        }
        return .success((body, translator.helpers, translator.usesAsync))
    }
}

/// A script's errors, when `Session.swiftProgram(of:file:)` cannot translate it.
public struct SwiftProgramErrors: Error, Sendable {
    /// Every error, in order.
    public let diagnostics: [Diagnostic]
}

/// The distinct strings of a list, in order.
private func distinct(_ items: [String]) -> [String] {
    var seen: Set<String> = []
    return items.filter { seen.insert($0).inserted }
}

/// How a terminal consumes the translated publisher.
enum SwiftConsumption: Sendable {
    /// Subscribes (the code is the publisher).
    case sink
    /// `for try await value in publisher.values`.
    case values
    /// `try await publisher.async()`.
    case async
}
