import PipeLanguage
import PlumbJSON

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
    /// The text's UTF-8 bytes and lines, and the conversions to and from UTF-16 positions.
    private(set) var positions = UTF16Positions(bytes: [])
    var bytes: [UInt8] { positions.bytes }
    /// Offsets where each line starts.
    var lineStarts: [Int] { positions.lines.starts }

    public init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.text = text
        positions = UTF16Positions(text)
    }

    /// Replaces the whole text.
    public mutating func replace(with text: String) {
        self.text = text
        positions = UTF16Positions(text)
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

    /// The 0-based line holding `offset`.
    func line(of offset: Int) -> Int { positions.lines.line(of: offset) }

    /// The protocol position of a UTF-8 offset (clamped to the text).
    public func position(of offset: Int) -> Position {
        let (line, character) = positions.position(ofUTF8: offset)
        return Position(line: line, character: character)
    }

    /// The UTF-8 offset of a protocol position (see `UTF16Positions.utf8Offset(line:character:)`
    /// for positions past a line's end, past the text, or inside a surrogate pair).
    public func offset(of position: Position) -> Int {
        positions.utf8Offset(line: position.line, character: position.character)
    }

    /// The offset `scalars` Unicode scalars after `offset` (a diagnostic's length is in scalars).
    func offset(_ offset: Int, advancedByScalars scalars: Int) -> Int {
        positions.utf8Offset(offset, advancedByScalars: scalars)
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
    init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int else { return nil }
        self.init(line: line, character: character)
    }
    var json: JSON { ["line": .int(line), "character": .int(character)] }
}

/// A protocol range.
public struct TextRange: Sendable, Hashable {
    public var start: Position
    public var end: Position
    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }
    init?(_ json: JSON?) {
        guard let start = Position(json?["start"]), let end = Position(json?["end"]) else { return nil }
        self.init(start: start, end: end)
    }
    var json: JSON { ["start": start.json, "end": end.json] }
}
