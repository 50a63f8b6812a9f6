/// One pipeline (or `let`) as Swift Combine code against `Reactive`, as data: the modules to
/// import, the helpers it needs, the code, and why it has no faithful Swift form, if it has none.
/// The shell puts the parts together (`:swift`, `plumb swift FILE`); an editor can show them apart.
///
/// ```swift
/// let swift = try session.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }").get()
/// swift.code          // ["[1, 2, 3].publisher.map { $0 * 10 }"]
/// swift.helpers       // []
/// swift.isFaithful    // true
/// ```
public struct TranslatedSwift: Sendable, Hashable {
    /// What the code is.
    public enum Form: Sendable, Hashable {
        /// The publisher: the chain as an expression (a terminal that consumes it, such as
        /// `values`, writes its loop).
        case publisher
        /// A statement to paste into a `main.swift`: the chain ends in a `sink` that prints each
        /// value (and the completion, when it can fail), stored in a cancellable.
        case statement
    }

    /// The modules the code needs, in import order: `Reactive`, `Foundation` before it when a
    /// helper needs it, and `ReactiveAsync` after it when the pipeline crosses to an async sequence.
    public var imports: [String]
    /// Each helper's declaration (a `// MARK: helper NAME` line, then its code), in a fixed order,
    /// with the helpers they need themselves.
    public var helpers: [String]
    /// The declarations the statement needs (a `flaky` counter), then the statement; an entry may
    /// span lines.
    public var code: [String]
    /// Why there is no faithful Swift form, each reason once, in order; empty when there is one.
    /// The code says so in a `/* no faithful Swift form: … */` comment at the spot.
    public var problems: [String]

    /// True when the Swift computes what the pipeline computes.
    public var isFaithful: Bool { problems.isEmpty }

    /// The import lines to paste: `import Reactive`, or `@preconcurrency import Reactive` when
    /// the code crosses to async sequences. swift-async-algorithms' operators (`debounce`,
    /// `merge`, …) need a `Sendable` base, and a publisher is not `Sendable` (Combine's are not,
    /// and `Reactive` follows them): `@preconcurrency` makes that a warning, as
    /// `@preconcurrency import Combine` does in an app.
    public var importLines: [String] {
        let async = imports.contains("ReactiveAsync")
        return imports.map { async && $0 == "Reactive" ? "@preconcurrency import Reactive" : "import \($0)" }
    }
}

extension Session {
    /// `:swift`: one pipeline (or `let`) as Swift Combine code against `Reactive`. Types come from
    /// the static pass's kinds; the session's bindings are in scope by their names.
    ///
    /// ```swift
    /// try session.swiftTranslation(of: "from [1, 2, 3] | map { $0 * 10 }", form: .statement).get().code
    /// // ["let cancellable = [1, 2, 3].publisher.map { $0 * 10 }\n    .sink { print($0) }"]
    /// ```
    ///
    /// - Parameters:
    ///   - text: One pipeline, as `:type` takes it.
    ///   - form: The publisher alone, or a statement to paste.
    /// - Returns: The translation, or the first error (a compile error, or not one pipeline).
    public func swiftTranslation(of text: String, form: TranslatedSwift.Form = .publisher) -> Result<TranslatedSwift, Diagnostic> {
        let (statements, diagnostics) = compile(text, file: "<swift>")
        if let error = diagnostics.first(where: { $0.severity == .error }) { return .failure(error) }
        let source = SourceText(text, file: "<swift>")
        guard statements.count == 1, let statement = statements.first else {
            return .failure(source.diagnostic(.swiftNeedsOnePipeline, at: Span(0, source.bytes.count)))
        }
        guard statement.checked != nil else { return .failure(source.diagnostic(.swiftNeedsPipeline, at: statement.ast.span)) }
        let translator = SwiftTranslator(source: statement.source)
        for (name, binding) in bindings {
            translator.bindings[name] = (name, binding.info.shape.kind, binding.info.shape.canFail, nil)
            translator.reserve(name)
        }
        let code = translator.statement(statement.ast, checked: statement.checked, program: false, pasteable: form == .statement)
        var seen: Set<String> = []
        return .success(
            TranslatedSwift(
                imports: (translator.helpers.isEmpty ? ["Reactive"] : ["Foundation", "Reactive"]) + (translator.usesAsync ? ["ReactiveAsync"] : []),
                helpers: SwiftHelper.texts(of: translator.helpers), code: code.lines,
                problems: code.problems.filter { seen.insert($0).inserted }))
    }
}

extension Message {
    fileprivate static let swiftNeedsOnePipeline = Message(SessionCode.typeNeedsOnePipeline, ":swift takes one pipeline")
    fileprivate static let swiftNeedsPipeline = Message(SessionCode.typeNeedsPipeline, ":swift takes a pipeline")
}
