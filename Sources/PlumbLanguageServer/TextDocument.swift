import PipeLanguage

/// An open document: its text as UTF-8 bytes with line starts, and the conversion between the
/// compiler's UTF-8 offsets and the protocol's positions (line, UTF-16 code units), which the
/// protocol requires by default (`é` and `€` are one unit, an emoji two).
///
/// ```swift
/// let doc = TextDocument(uri: "file:///a.pipe", version: 1, text: "\"😀\" x")
/// doc.position(of: 7)                       // (line: 0, character: 5)
/// doc.offset(of: Position(line: 0, character: 5))   // 7
/// ```
public struct TextDocument: Sendable {
    public let uri: String
    public var version: Int
    public private(set) var text: String
    private(set) var bytes: [UInt8] = []
    private(set) var lines = LineIndex([])
    /// Offsets where each line starts.
    var lineStarts: [Int] { lines.starts }

    public init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.text = text
        index()
    }

    /// Replaces the whole text.
    public mutating func replace(with text: String) {
        self.text = text
        index()
    }

    /// Replaces the text between two positions (an incremental change).
    public mutating func replace(from: Position, to: Position, with replacement: String) {
        let lo = offset(of: from)
        let hi = max(lo, offset(of: to))
        var new = Array(bytes[..<lo])
        new.append(contentsOf: replacement.utf8)
        new.append(contentsOf: bytes[hi...])
        replace(with: String(decoding: new, as: UTF8.self))
    }

    private mutating func index() {
        bytes = Array(text.utf8)
        lines = LineIndex(bytes)
    }

    /// The 0-based line holding `offset`.
    func line(of offset: Int) -> Int { lines.line(of: offset) }

    /// The protocol position of a UTF-8 offset (clamped to the text).
    public func position(of offset: Int) -> Position {
        let offset = max(0, min(offset, bytes.count))
        let line = line(of: offset)
        var units = 0
        var i = lineStarts[line]
        while i < offset {
            let b = bytes[i]
            if b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
            i += 1
        }
        return Position(line: line, character: units)
    }

    /// The UTF-8 offset of a protocol position; a character past the line's end means its end, a
    /// line past the text's end means the text's end, and a position inside a surrogate pair means
    /// the scalar's start.
    public func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let lineEnd = position.line + 1 < lineStarts.count ? lineStarts[position.line + 1] - 1 : bytes.count
        var i = lineStarts[position.line]
        var units = 0
        while i < lineEnd {
            let width = bytes[i] >= 0xF0 ? 2 : 1
            if units + width > position.character { break }
            units += width
            i += 1
            while i < lineEnd, bytes[i] & 0xC0 == 0x80 { i += 1 }
        }
        return i
    }

    /// The offset `scalars` Unicode scalars after `offset` (a diagnostic's length is in scalars).
    func offset(_ offset: Int, advancedByScalars scalars: Int) -> Int {
        var i = max(0, min(offset, bytes.count))
        var left = scalars
        while left > 0, i < bytes.count {
            i += 1
            while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
            left -= 1
        }
        return i
    }

    /// The protocol range of `length` UTF-8 bytes at `offset`.
    public func range(offset: Int, length: Int) -> TextRange {
        TextRange(start: position(of: offset), end: position(of: offset + max(0, length)))
    }

    /// The word (letters, digits, `_`) around `offset`, with its UTF-8 start.
    func word(at offset: Int) -> (text: String, offset: Int)? {
        func isWord(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
        var lo = max(0, min(offset, bytes.count))
        var hi = lo
        while lo > 0, isWord(bytes[lo - 1]) { lo -= 1 }
        while hi < bytes.count, isWord(bytes[hi]) { hi += 1 }
        guard lo < hi else { return nil }
        return (String(decoding: bytes[lo..<hi], as: UTF8.self), lo)
    }

    /// The text of the line holding `offset`, up to `offset`.
    func linePrefix(before offset: Int) -> String {
        let offset = max(0, min(offset, bytes.count))
        return String(decoding: bytes[lineStarts[line(of: offset)]..<offset], as: UTF8.self)
    }
}

/// A protocol position: 0-based line and UTF-16 code unit.
public struct Position: Sendable, Hashable {
    public var line: Int
    public var character: Int
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
    init?(_ json: JSONValue?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int else { return nil }
        self.init(line: line, character: character)
    }
    var json: JSONValue { ["line": .int(line), "character": .int(character)] }
}

/// A protocol range.
public struct TextRange: Sendable, Hashable {
    public var start: Position
    public var end: Position
    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }
    init?(_ json: JSONValue?) {
        guard let start = Position(json?["start"]), let end = Position(json?["end"]) else { return nil }
        self.init(start: start, end: end)
    }
    var json: JSONValue { ["start": start.json, "end": end.json] }
}
