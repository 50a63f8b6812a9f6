import Foundation
import PipeLanguage

/// One document compiled the way the shell compiles a script: its `:command` lines taken out
/// (`ScriptLines`), the rest lexed, parsed and checked by a fresh `Session`. Offsets in
/// `diagnostics` and `outline` are in `language`, the text with each command line blank; it has the
/// document's lines, so a position in one is the same position in the other. A command line whose
/// name is not one of the shell's commands is an error at its name, as the shell reports it.
struct Analysis {
    let document: TextDocument
    let language: TextDocument
    let hostLines: [ScriptLines.HostLine]
    let diagnostics: [Diagnostic]
    let outline: SourceOutline
    /// The files the document `:load`s (paths relative to its folder), compiled first in the same
    /// session so their bindings are known, as the shell does.
    let loaded: [LoadedFile]

    /// A `:load`ed file: its URI, its language text and its outline.
    struct LoadedFile {
        var uri: String
        var language: TextDocument
        var outline: SourceOutline
    }

    init(_ document: TextDocument, commands: [LanguageServer.Command]? = nil, unknownCommand: DiagnosticID? = nil) {
        self.document = document
        let script = ScriptLines(document.text)
        language = TextDocument(uri: document.uri, version: document.version, text: script.language)
        hostLines = script.hostLines
        let session = Session(runtime: Runtime(clock: .virtual))
        loaded = Self.load(script.hostLines, from: document.uri, into: session)
        let (statements, diagnostics) = session.compile(script.language, file: Self.fileName(document.uri))
        var all = diagnostics
        if let commands, let unknownCommand {
            all += Self.unknownCommands(script.hostLines, commands: commands, id: unknownCommand, in: document, file: Self.fileName(document.uri))
            all.sort { $0.offset < $1.offset }
        }
        self.diagnostics = all
        outline = SourceOutline(statements)
    }

    /// An error at each command line naming no command (`:trcae`), with the closest name as a fix-it.
    static func unknownCommands(
        _ lines: [ScriptLines.HostLine], commands: [LanguageServer.Command], id: DiagnosticID, in document: TextDocument, file: String
    ) -> [Diagnostic] {
        let names = commands.map(\.name)
        return lines.compactMap { line in
            guard !line.name.isEmpty, !commands.contains(where: { $0.name == line.name || $0.aliases.contains(line.name) }) else { return nil }
            // Offsets in the document (the language text has the line blank); blanks before the `:` are ASCII.
            let offset = document.offset(of: Position(line: line.line - 1, character: 0)) + line.column
            var message = "unknown command ':\(line.name)'"
            var fixIts: [FixIt] = []
            if let suggestion = Suggestions.closest(to: line.name, among: names) {
                message += "; did you mean ':\(suggestion)'?"
                fixIts = [FixIt(offset: offset, length: line.name.utf8.count, replacement: suggestion)]
            } else {
                message += " (:help lists the commands)"
            }
            return Diagnostic(
                id: id, message: message, location: SourceLocation(file: file, line: line.line, column: line.column + 1),
                length: line.name.unicodeScalars.count, fixIts: fixIts, offset: offset)
        }
    }

    /// Compiles each `:load`ed file that can be read into `session`, binding its `let`s (nothing
    /// runs); their diagnostics are theirs, not the document's.
    static func load(_ lines: [ScriptLines.HostLine], from uri: String, into session: Session) -> [LoadedFile] {
        guard let base = URL(string: uri), base.isFileURL else { return [] }
        let folder = base.deletingLastPathComponent()
        var files: [LoadedFile] = []
        for line in lines where line.name == "load" && !line.argument.isEmpty {
            var path = line.argument
            if path.count >= 2, path.hasPrefix("\""), path.hasSuffix("\"") { path = String(path.dropFirst().dropLast()) }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            guard url.standardizedFileURL != base.standardizedFileURL, let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let language = ScriptLines(text).language
            let (statements, _) = session.compile(language, file: url.path)
            for statement in statements where statement.isBinding { _ = session.execute(statement) }
            files.append(
                LoadedFile(
                    uri: url.absoluteString, language: TextDocument(uri: url.absoluteString, version: 0, text: language),
                    outline: SourceOutline(statements)))
        }
        return files
    }

    /// `file:///a/b.pipe` → `/a/b.pipe` (what diagnostics name).
    static func fileName(_ uri: String) -> String {
        guard let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    /// The text a diagnostic's offsets are in: the document for one on a command line, the
    /// language text otherwise.
    func text(of diagnostic: Diagnostic) -> TextDocument {
        hostLine(at: diagnostic.location.line - 1) == nil ? language : document
    }

    /// The protocol range a diagnostic covers (its length is in Unicode scalars).
    func range(of diagnostic: Diagnostic) -> TextRange {
        let text = text(of: diagnostic)
        let end = text.offset(diagnostic.offset, advancedByScalars: diagnostic.length)
        return text.range(offset: diagnostic.offset, length: end - diagnostic.offset)
    }

    /// The `:command` line at a 0-based line, if that line is one.
    func hostLine(at line: Int) -> ScriptLines.HostLine? {
        hostLines.first { $0.line == line + 1 }
    }
}
