import Foundation
import PipeLanguage

/// One document compiled the way the shell compiles a script: its `:command` lines taken out
/// (`ScriptLines`), the rest lexed, parsed and checked by a fresh `Session`. Offsets in
/// `diagnostics` and `outline` are in `language`, the text with each command line blank; it has the
/// document's lines, so a position in one is the same position in the other.
struct Analysis {
    let document: TextDocument
    let language: TextDocument
    let hostLines: [ScriptLines.HostLine]
    let diagnostics: [Diagnostic]
    let outline: SourceOutline

    init(_ document: TextDocument) {
        self.document = document
        let script = ScriptLines(document.text)
        language = TextDocument(uri: document.uri, version: document.version, text: script.language)
        hostLines = script.hostLines
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(script.language, file: Self.fileName(document.uri))
        self.diagnostics = diagnostics
        outline = SourceOutline(statements)
    }

    /// `file:///a/b.pipe` → `/a/b.pipe` (what diagnostics name).
    static func fileName(_ uri: String) -> String {
        guard let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    /// The protocol range a diagnostic covers (its length is in Unicode scalars).
    func range(of diagnostic: Diagnostic) -> TextRange {
        let end = language.offset(diagnostic.offset, advancedByScalars: diagnostic.length)
        return language.range(offset: diagnostic.offset, length: end - diagnostic.offset)
    }

    /// The `:command` line at a 0-based line, if that line is one.
    func hostLine(at line: Int) -> ScriptLines.HostLine? {
        hostLines.first { $0.line == line + 1 }
    }
}
