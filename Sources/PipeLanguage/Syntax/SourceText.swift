/// A text being compiled, as UTF-8 bytes, with what is needed to turn offsets into locations.
struct SourceText: Sendable {
    let file: String
    let bytes: [UInt8]
    let firstLine: Int
    /// Where each line starts.
    let lines: LineIndex
    /// Offsets where each line starts.
    var lineStarts: [Int] { lines.starts }

    init(_ text: String, file: String, firstLine: Int = 1) {
        self.file = file
        self.bytes = Array(text.utf8)
        self.firstLine = firstLine
        self.lines = LineIndex(bytes)
    }

    /// The 0-based line index holding `offset`.
    func lineIndex(of offset: Int) -> Int { lines.line(of: offset) }

    /// Counts scalars (bytes that are not UTF-8 continuation bytes) in `from..<to`.
    func scalarCount(_ from: Int, _ to: Int) -> Int {
        var n = 0
        var i = from
        let end = min(to, bytes.count)
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    func location(of offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        let line = lineIndex(of: offset)
        return SourceLocation(file: file, line: firstLine + line, column: 1 + scalarCount(lineStarts[line], offset))
    }

    /// The text in a span.
    func text(_ span: Span) -> String {
        let lo = max(0, min(span.offset, bytes.count))
        let hi = max(lo, min(span.offset + span.length, bytes.count))
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }

    /// A diagnostic at `span`; the length is clipped to the span's first line.
    func diagnostic(
        _ message: Message, at span: Span, notes: [Diagnostic.Note] = [], help: String? = nil, fixIts: [FixIt] = []
    ) -> Diagnostic {
        let offset = max(0, min(span.offset, bytes.count))
        let line = lineIndex(of: offset)
        let lineEnd = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        let end = max(offset, min(offset + max(span.length, 0), lineEnd))
        var d = Diagnostic(
            id: message.id, message: message.text, location: location(of: offset),
            length: max(scalarCount(offset, end), offset < lineEnd ? 1 : 0), notes: notes, help: help, fixIts: fixIts,
            offset: offset)
        d.lineInSource = line + 1
        return d
    }

    /// A note pointing at `span` in this text.
    func note(_ message: String, at span: Span) -> Diagnostic.Note {
        note(message, at: range(span))
    }

    /// A note pointing at `range`, which may lie in another text (a binding made by an earlier
    /// `compile`): rendering shows its line only when it is in this one.
    func note(_ message: String, at range: SourceRange) -> Diagnostic.Note {
        var note = Diagnostic.Note(message, range: range)
        if range.location.file == file, range.offset <= bytes.count, location(of: range.offset) == range.location {
            note.lineInSource = lineIndex(of: range.offset) + 1
        }
        return note
    }

    /// A fix-it replacing the text of `span` (a suggested name for a misspelt one).
    func replacing(_ span: Span, with replacement: String) -> FixIt {
        FixIt(offset: span.offset, length: span.length, replacement: replacement)
    }
}
/// A byte range in the source. Spans never take part in AST equality, so a printed and re-parsed
/// program compares equal to the original.
struct Span: Sendable, Hashable {
    var offset: Int
    var length: Int
    init(_ offset: Int, _ length: Int) {
        self.offset = offset
        self.length = length
    }
    static let none = Span(0, 0)
    static func == (lhs: Span, rhs: Span) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
    /// The span from the start of `self` to the end of `other`.
    func through(_ other: Span) -> Span { Span(offset, max(length, other.offset + other.length - offset)) }
}
