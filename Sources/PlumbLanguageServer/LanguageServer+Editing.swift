import Foundation
import PipeLanguage
import PlumbJSON

extension LanguageServer {
    // MARK: formatting, rangeFormatting

    /// The house style's edits (`PipeFormatter`, as `plumb fmt`); a document with errors is left
    /// alone, with an error that says why.
    func formatting(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        return try formattingEdits(analysis, in: nil)
    }

    /// The house style's edits that touch the requested range.
    func rangeFormatting(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        guard let range = TextRange(params["range"]) else { throw ResponseError(code: .invalidParams, message: "missing or bad range") }
        let text = analysis.document
        return try formattingEdits(analysis, in: text.offset(of: range.start)..<max(text.offset(of: range.start), text.offset(of: range.end)))
    }

    private func formattingEdits(_ analysis: Analysis, in range: Range<Int>?) throws -> JSON {
        let text = analysis.document
        switch PipeFormatter.edits(text.text, file: Analysis.fileName(text.uri), in: range) {
        case .failure(let refusal):
            throw ResponseError(code: .requestFailed, message: "not formatted: the document has errors (\(refusal))")
        case .success(let edits):
            return .array(
                edits.map { ["range": text.range(offset: $0.offset, length: $0.length).json, "newText": .string($0.replacement)] })
        }
    }

    // MARK: references, rename, prepareRename

    /// The binding named at a position: where it is declared, and every use that names it, in the
    /// document and in the files it `:load`s.
    struct BindingSites {
        var name: String
        var declaration: (uri: String, range: TextRange)
        var uses: [(uri: String, range: TextRange)]
        /// The range of the name under the cursor.
        var cursor: TextRange
    }

    func bindingSites(_ params: JSON) throws -> BindingSites? {
        let (uri, analysis) = try document(params)
        let offset = analysis.language.offset(of: try position(params))
        let outline = analysis.outline
        // The name under the cursor: a use, a `let` name, or (in a statement with errors) a word.
        var name: String
        var nameOffset: Int
        if let reference = outline.references.first(where: { $0.offset <= offset && offset <= $0.offset + $0.length }) {
            (name, nameOffset) = (reference.name, reference.offset)
        } else if let binding = outline.bindings.first(where: { $0.nameOffset <= offset && offset <= $0.nameOffset + $0.nameLength }) {
            (name, nameOffset) = (binding.name, binding.nameOffset + binding.nameLength)
        } else if let word = analysis.language.word(at: offset) {
            (name, nameOffset) = (word.text, word.offset)
        } else {
            return nil
        }
        let cursorLength = name.utf8.count
        let cursorStart = outline.bindings.contains { $0.nameOffset + $0.nameLength == nameOffset } ? nameOffset - cursorLength : nameOffset
        let cursor = analysis.language.range(offset: cursorStart, length: cursorLength)
        if let local = outline.binding(named: name, usedAt: nameOffset) ?? outline.bindings.first(where: { $0.nameOffset == cursorStart }) {
            let uses = outline.references.filter { $0.name == name && outline.binding(named: name, usedAt: $0.offset) == local }
            return BindingSites(
                name: name, declaration: (uri, analysis.language.range(offset: local.nameOffset, length: local.nameLength)),
                uses: uses.map { (uri, analysis.language.range(offset: $0.offset, length: $0.length)) }, cursor: cursor)
        }
        // A binding a `:load`ed file makes: its uses there and the document's uses it is not shadowed for.
        guard let file = analysis.loaded.last(where: { $0.outline.bindings.contains { $0.name == name } }),
            let binding = file.outline.bindings.last(where: { $0.name == name })
        else { return nil }
        var uses = file.outline.references.filter { $0.name == name && file.outline.binding(named: name, usedAt: $0.offset) == binding }
            .map { (file.uri, file.language.range(offset: $0.offset, length: $0.length)) }
        uses += outline.references.filter { $0.name == name && outline.binding(named: name, usedAt: $0.offset) == nil }
            .map { (uri, analysis.language.range(offset: $0.offset, length: $0.length)) }
        return BindingSites(
            name: name, declaration: (file.uri, file.language.range(offset: binding.nameOffset, length: binding.nameLength)), uses: uses,
            cursor: cursor)
    }

    /// Every use of the binding at the position (and its `let`, when asked).
    func references(_ params: JSON) throws -> JSON {
        guard let sites = try bindingSites(params) else { return .array([]) }
        let declaration = params["context"]?["includeDeclaration"] != .bool(false)
        let all = (declaration ? [sites.declaration] : []) + sites.uses
        return .array(all.map { ["uri": .string($0.uri), "range": $0.range.json] })
    }

    /// The range and name a rename would change, or an error when the position names no binding.
    func prepareRename(_ params: JSON) throws -> JSON {
        guard let sites = try bindingSites(params) else {
            throw ResponseError(code: .requestFailed, message: "only a let binding's name can be renamed here")
        }
        return ["range": sites.cursor.json, "placeholder": .string(sites.name)]
    }

    /// A workspace edit renaming the binding at the position, its `let` and every use; refused
    /// when the new name is not a name or is taken.
    func rename(_ params: JSON) throws -> JSON {
        guard let newName = params["newName"]?.string else { throw ResponseError(code: .invalidParams, message: "missing newName") }
        guard let sites = try bindingSites(params) else {
            throw ResponseError(code: .requestFailed, message: "only a let binding's name can be renamed here")
        }
        guard Self.isName(newName) else {
            throw ResponseError(
                code: .requestFailed, message: "'\(newName)' is not a name: use letters, digits and _, starting with a letter or _")
        }
        if ["let", "expect", "true", "false", "nil"].contains(newName) {
            throw ResponseError(code: .requestFailed, message: "'\(newName)' is a word of the language, not a free name")
        }
        if Catalog.entry(named: newName) != nil {
            throw ResponseError(code: .requestFailed, message: "'\(newName)' is taken: it names the operator '\(newName)'")
        }
        let (uri, analysis) = try document(params)
        let taken = analysis.outline.bindings.map(\.name) + analysis.loaded.flatMap { $0.outline.bindings.map(\.name) }
        if newName != sites.name, taken.contains(newName) {
            throw ResponseError(code: .requestFailed, message: "'\(newName)' is taken: a binding of that name exists already")
        }
        _ = uri
        var changes: [String: [JSON]] = [:]
        for site in [sites.declaration] + sites.uses {
            changes[site.uri, default: []].append(["range": site.range.json, "newText": .string(newName)])
        }
        return ["changes": .object(changes.mapValues { .array($0) })]
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    // MARK: signatureHelp

    /// The catalog's signatures of the stage whose arguments the cursor is in, the argument being
    /// written active.
    func signatureHelp(_ params: JSON) throws -> JSON {
        let (_, analysis) = try document(params)
        let offset = analysis.language.offset(of: try position(params))
        let prefix = analysis.language.linePrefix(before: offset)
        let complete = prefix.hasSuffix(" ") || prefix.hasSuffix("\t")
        guard let (name, arguments) = Self.stage(in: complete ? prefix : prefix + " "), let entry = Catalog.entry(named: name) else {
            return .null
        }
        let written = complete ? arguments.count : max(0, arguments.count - 1)
        let overloads = entry.signature.split(separator: "\n").map(String.init)
        var signatures: [JSON] = []
        var active = 0
        var activeParameter = 0
        for (index, line) in overloads.enumerated() {
            let parameters = Self.parameters(of: line)
            if index == active, written >= parameters.count, index + 1 < overloads.count { active = index + 1 }
            if index == active { activeParameter = min(written, max(0, parameters.count - 1)) }
            signatures.append([
                "label": .string(line), "documentation": .string(entry.summary),
                "parameters": .array(parameters.map { ["label": .string($0)] }),
            ])
        }
        return ["signatures": .array(signatures), "activeSignature": .int(active), "activeParameter": .int(activeParameter)]
    }

    /// A signature line's parameters after the name: `scan INITIAL { NEXT }` → `INITIAL`, `{ NEXT }`.
    static func parameters(of signature: String) -> [String] {
        var parameters: [String] = []
        var current = ""
        var depth = 0
        for c in signature.drop(while: { $0 != " " }) {
            if c == " ", depth == 0 {
                if !current.isEmpty, !current.hasSuffix(":") {
                    parameters.append(current)
                    current = ""
                } else if current.hasSuffix(":") {
                    current += " "
                }
                continue
            }
            if "[{(".contains(c) { depth += 1 }
            if "]})".contains(c) { depth = max(0, depth - 1) }
            current.append(c)
        }
        if !current.isEmpty { parameters.append(current) }
        return parameters
    }
}
