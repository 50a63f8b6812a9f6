import Foundation
import PipeLanguage
import PlumbJSON

extension LanguageServer {
    /// A diagnostic as the protocol has it: range, severity, the id as `code` (with a link to its
    /// explanation as `codeDescription` when there is one), `help` and notes
    /// as related information: a note that points at text (`'s' was bound here`) at that text,
    /// the others at the diagnostic's place.
    func diagnosticJSON(_ diagnostic: Diagnostic, in analysis: Analysis, uri: String) -> JSON {
        let range = analysis.range(of: diagnostic)
        let location: JSON = ["uri": .string(uri), "range": range.json]
        var related: [JSON] = []
        if let help = diagnostic.help { related.append(["location": location, "message": .string("help: \(help)")]) }
        for note in diagnostic.notes {
            var at = location
            // The document is compiled in one piece: a note's offsets are in the language text.
            if let pointed = note.range, pointed.location.file == diagnostic.location.file {
                at = ["uri": .string(uri), "range": analysis.language.range(offset: pointed.offset, length: pointed.length).json]
            }
            related.append(["location": at, "message": .string("note: \(note.message)")])
        }
        var json: [String: JSON] = [
            "range": range.json,
            "severity": .int(Self.severity(diagnostic.severity)),
            "code": .string(diagnostic.id.code),
            "source": "plumb",
            "message": .string(diagnostic.message),
        ]
        if !related.isEmpty { json["relatedInformation"] = .array(related) }
        // The code links to its explanation, as rust-analyzer links an error code to its page.
        if let href = explanationLink?(diagnostic.id) { json["codeDescription"] = ["href": .string(href)] }
        return .object(json)
    }

    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    // MARK: codeAction

    /// Every fix-it of a diagnostic touching the requested range, as a quick fix with its edit.
    func codeActions(_ params: JSON) throws -> JSON {
        let (uri, analysis) = try document(params)
        guard let requested = TextRange(params["range"]) else { throw ResponseError(code: .invalidParams, message: "missing or bad range") }
        var actions: [JSON] = []
        for diagnostic in analysis.diagnostics where !diagnostic.fixIts.isEmpty {
            let text = analysis.text(of: diagnostic)
            let (lo, hi) = (text.offset(of: requested.start), text.offset(of: requested.end))
            let end = text.offset(diagnostic.offset, advancedByScalars: diagnostic.length)
            guard diagnostic.offset <= hi, lo <= end else { continue }
            for (index, fix) in diagnostic.fixIts.enumerated() {
                let edit: JSON = [
                    "range": text.range(offset: fix.offset, length: fix.length).json,
                    "newText": .string(fix.replacement),
                ]
                actions.append([
                    "title": .string(Self.title(of: fix, in: text)),
                    "kind": "quickfix",
                    "isPreferred": .bool(index == 0),
                    "diagnostics": [diagnosticJSON(diagnostic, in: analysis, uri: uri)],
                    "edit": ["changes": .object([uri: [edit]])],
                ])
            }
        }
        return .array(actions)
    }

    static func title(of fix: FixIt, in document: TextDocument) -> String {
        let bytes = Array(document.text.utf8)
        let lo = max(0, min(fix.offset, bytes.count))
        let old = String(decoding: bytes[lo..<max(lo, min(lo + fix.length, bytes.count))], as: UTF8.self)
        if old.isEmpty { return "Insert '\(fix.replacement)'" }
        if fix.replacement.isEmpty { return "Remove '\(old)'" }
        return "Replace '\(old)' with '\(fix.replacement)'"
    }

    // MARK: hover

    /// The catalog entry under the cursor, a binding's inferred type, or a `:command`'s summary.
    func hover(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        let position = try position(params)
        if let host = analysis.hostLine(at: position.line),
            let command = commands.first(where: { $0.name == host.name })
        {
            return Self.markdown("**:\(command.name)** \(command.arguments)\n\n\(command.summary)")
        }
        let offset = analysis.language.offset(of: position)
        let outline = analysis.outline
        if let binding = outline.bindings.first(where: { $0.nameOffset <= offset && offset <= $0.nameOffset + $0.nameLength }) {
            return Self.markdown(Self.bindingHover(binding), range: analysis.language.range(offset: binding.nameOffset, length: binding.nameLength))
        }
        if let reference = outline.references.first(where: { $0.offset <= offset && offset <= $0.offset + $0.length }),
            let binding = outline.binding(named: reference.name, usedAt: reference.offset)
        {
            return Self.markdown(Self.bindingHover(binding), range: analysis.language.range(offset: reference.offset, length: reference.length))
        }
        if let stage = outline.stages.first(where: { $0.nameOffset <= offset && offset <= $0.nameOffset + $0.nameLength }),
            let name = stage.entry, let entry = Catalog.entry(named: name)
        {
            return Self.markdown(entryHoverWithDiagram(entry), range: analysis.language.range(offset: stage.nameOffset, length: stage.nameLength))
        }
        // A statement with errors has no checked stages: the word under the cursor may still be an entry.
        if let word = analysis.language.word(at: offset), let entry = Catalog.entry(named: word.text) {
            return Self.markdown(entryHoverWithDiagram(entry), range: analysis.language.range(offset: word.offset, length: word.text.utf8.count))
        }
        return .null
    }

    static func markdown(_ text: String, range: TextRange? = nil) -> JSON {
        var hover: [String: JSON] = ["contents": ["kind": "markdown", "value": .string(text)]]
        if let range { hover["range"] = range.json }
        return .object(hover)
    }

    static func bindingHover(_ binding: SourceOutline.Binding) -> String {
        "```pipe\nlet \(binding.name) = \(binding.text)\n```\n\n`\(binding.type.description)`"
    }

    /// Signature, summary, Combine equivalent and example, as `:help NAME` shows them.
    static func entryHover(_ entry: CatalogEntry) -> String {
        var text = "```pipe\n\(entry.signature)\n```\n\n\(entry.summary)\n\nCombine: `\(entry.combine)`"
        if !entry.aliases.isEmpty { text += "\n\nAlso: " + entry.aliases.map { "`\($0)`" }.joined(separator: ", ") }
        text += "\n\nExample:\n```pipe\n\(entry.example)\n```"
        return text
    }

    /// The entry's hover with its example's marble diagram, drawn by Plumb on the virtual clock,
    /// as a code block after the example (each entry's drawn once, then kept).
    func entryHoverWithDiagram(_ entry: CatalogEntry) -> String {
        let text = Self.entryHover(entry)
        guard let exampleDiagram else { return text }
        if diagrams[entry.name] == nil { diagrams[entry.name] = .some(exampleDiagram(entry.name)) }
        guard let diagram = diagrams[entry.name] ?? nil else { return text }
        return text + "\n\nThe example on the virtual clock:\n```text\n\(diagram)\n```"
    }

    // MARK: completion

    /// Completion items at the cursor: `:commands` on a command line, operators and terminals
    /// after `|`, sources, bindings and `let`/`expect` at a statement's start, bindings elsewhere.
    func completion(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        let position = try position(params)
        let docOffset = analysis.document.offset(of: position)
        let prefix = analysis.document.linePrefix(before: docOffset)
        let trimmed = prefix.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix(":") {
            guard !trimmed.contains(" ") else { return [] }
            let start = Position(line: position.line, character: position.character - trimmed.utf16.count)
            return .array(
                commands.map { command in
                    let label = ":" + command.name
                    return [
                        "label": .string(label), "kind": 14, "detail": .string("\(label) \(command.arguments)"),
                        "documentation": .string(command.summary),
                        "textEdit": ["range": TextRange(start: start, end: position).json, "newText": .string(label)],
                    ]
                })
        }
        let offset = analysis.language.offset(of: position)
        let bindings = Self.uniqueNames(analysis.outline.bindings.filter { $0.offset + $0.length <= offset })
        let context = Self.context(of: prefix)
        var items: [JSON] = []
        switch context {
        case .afterPipe:
            items = Catalog.entries.filter { $0.kind != .source }.map(Self.item)
            items += bindings.map(Self.bindingItem)
        case .statementStart:
            items = Catalog.entries.filter { $0.kind == .source }.map(Self.item)
            items += bindings.map(Self.bindingItem)
            if prefix.allSatisfy({ $0 == " " || $0 == "\t" || $0.isLetter }) {
                items += ["let", "expect"].map { ["label": .string($0), "kind": 14] }
            }
        case .argument:
            items = Self.labelItems(in: prefix) + bindings.map(Self.bindingItem)
        }
        return .array(items)
    }

    /// The argument labels of the stage being written (`maxPublishers:` in `flatMap maxP`) that
    /// it does not have yet, from the catalog's argument rules.
    static func labelItems(in prefix: String) -> [JSON] {
        guard let (name, arguments) = stage(in: prefix), let entry = Catalog.entry(named: name) else { return [] }
        return entry.argumentLabels.filter { !arguments.contains($0.label + ":") }.map { label, placeholder in
            [
                "label": .string(label + ":"), "kind": 5, "detail": .string("\(label): \(placeholder)"),
                "insertText": .string(label + ": "),
                "documentation": .string(entry.signature.split(separator: "\n").first.map(String.init) ?? entry.name),
            ]
        }
    }

    /// The name of the stage the line's text before the cursor ends in, and the words after it:
    /// the text since the last `|`, `(` or `{` not closed again (strings skipped), without a
    /// leading `let NAME =`.
    static func stage(in prefix: String) -> (name: String, arguments: [String])? {
        var starts = [prefix.startIndex]
        var index = prefix.startIndex
        var inString = false
        while index < prefix.endIndex {
            let c = prefix[index]
            let next = prefix.index(after: index)
            if inString {
                if c == "\\" && next < prefix.endIndex {
                    index = prefix.index(after: next)
                    continue
                }
                if c == "\"" { inString = false }
            } else {
                switch c {
                case "\"": inString = true
                case "(", "{", "[": starts.append(next)
                case ")", "}", "]": if starts.count > 1 { starts.removeLast() }
                case "|": starts[starts.count - 1] = next
                default: break
                }
            }
            index = next
        }
        var words = prefix[starts[starts.count - 1]...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words.first == "let", words.count >= 3, words[2] == "=" { words.removeFirst(3) }
        guard let name = words.first, name.first?.isLetter == true, words.count >= 1 else { return nil }
        // The word being typed is not an argument yet.
        let complete = prefix.last == " " || prefix.last == "\t"
        let arguments = Array(words.dropFirst())
        guard complete || words.count >= 2 else { return nil }
        return (name, complete ? arguments : Array(arguments.dropLast()))
    }

    enum CompletionContext { case afterPipe, statementStart, argument }

    /// Where the word being typed stands, from the line's text before the cursor.
    static func context(of prefix: String) -> CompletionContext {
        var text = Substring(prefix)
        while let last = text.last, last.isLetter || last.isNumber || last == "_" { text = text.dropLast() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        guard let last = text.last else { return .statementStart }
        switch last {
        case "|": return .afterPipe
        case "(", "=", "&": return .statementStart
        default: return .argument
        }
    }

    static func item(_ entry: CatalogEntry) -> JSON {
        [
            "label": .string(entry.name), "kind": .int(entry.kind == .source ? 3 : 24),
            "detail": .string(entry.signature.split(separator: "\n").first.map(String.init) ?? entry.name),
            "documentation": ["kind": "markdown", "value": .string(entryHover(entry))],
        ]
    }

    static func bindingItem(_ binding: SourceOutline.Binding) -> JSON {
        ["label": .string(binding.name), "kind": 6, "detail": .string(binding.type.description), "documentation": .string(binding.text)]
    }

    static func uniqueNames(_ bindings: [SourceOutline.Binding]) -> [SourceOutline.Binding] {
        var seen = Set<String>()
        return bindings.reversed().filter { seen.insert($0.name).inserted }.reversed()
    }

    // MARK: documentSymbol, definition, inlayHint

    /// The `let` bindings, with their types as detail.
    func documentSymbols(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        return .array(
            analysis.outline.bindings.map { binding in
                [
                    "name": .string(binding.name), "detail": .string(binding.type.description), "kind": 13,
                    "range": analysis.language.range(offset: binding.offset, length: binding.length).json,
                    "selectionRange": analysis.language.range(offset: binding.nameOffset, length: binding.nameLength).json,
                ]
            })
    }

    /// A binding's use → the name in its `let`.
    func definition(_ params: JSON) throws -> JSON {
        let (uri, analysis) = try document(params)
        let offset = analysis.language.offset(of: try position(params))
        let outline = analysis.outline
        let target: SourceOutline.Binding?
        if let reference = outline.references.first(where: { $0.offset <= offset && offset <= $0.offset + $0.length }) {
            target = outline.binding(named: reference.name, usedAt: reference.offset)
        } else if let word = analysis.language.word(at: offset) {
            // In a statement with errors the uses are not checked: take the word.
            target = outline.binding(named: word.text, usedAt: word.offset)
        } else {
            target = nil
        }
        guard let target else {
            // A binding a `:load`ed file makes.
            let name =
                outline.references.first(where: { $0.offset <= offset && offset <= $0.offset + $0.length })?.name
                ?? analysis.language.word(at: offset)?.text
            guard let name, let file = analysis.loaded.last(where: { $0.outline.bindings.contains { $0.name == name } }),
                let binding = file.outline.bindings.last(where: { $0.name == name })
            else { return .null }
            return ["uri": .string(file.uri), "range": file.language.range(offset: binding.nameOffset, length: binding.nameLength).json]
        }
        return ["uri": .string(uri), "range": analysis.language.range(offset: target.nameOffset, length: target.nameLength).json]
    }

    /// Each stage's output type after it (`→ Int`), as `:type` shows it.
    func inlayHints(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        let range = TextRange(params["range"])
        let lo = range.map { analysis.language.offset(of: $0.start) } ?? 0
        let hi = range.map { analysis.language.offset(of: $0.end) } ?? Int.max
        return .array(
            analysis.outline.stages.filter { lo <= $0.end && $0.end <= hi }.map { stage in
                [
                    "position": analysis.language.position(of: stage.end).json,
                    "label": .string("→ \(stage.type.output)"), "kind": 1, "paddingLeft": true,
                ]
            })
    }
}
