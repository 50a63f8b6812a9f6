/// Converts between the compiler's UTF-8 offsets and the UTF-16 units that editors and browsers
/// count: the language server's positions (0-based line, UTF-16 character), and a browser text
/// field's offsets from the start. `é` and `€` are one unit, an emoji (outside the Basic
/// Multilingual Plane) two. One converter for the language server, the room and its child.
///
/// Lines end after each `\n`; a `\r` before it belongs to the line ending, not to the line.
/// Every input is clamped: an offset or position past the end means the end, and a position
/// inside a surrogate pair means its scalar's start.
///
/// ```swift
/// let text = UTF16Positions("\"😀\" x")
/// text.position(ofUTF8: 7)                      // (line: 0, character: 5)
/// text.utf8Offset(line: 0, character: 5)        // 7
/// text.utf16Offset(ofUTF8: 7)                   // 5
/// ```
public struct UTF16Positions: Sendable {
    /// The text as UTF-8.
    public let bytes: [UInt8]
    /// Where each line starts.
    public let lines: LineIndex

    public init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        lines = LineIndex(bytes)
    }

    /// The line (0-based) and UTF-16 character of a UTF-8 offset (clamped to the text).
    public func position(ofUTF8 offset: Int) -> (line: Int, character: Int) {
        let offset = clamped(offset)
        let line = lines.line(of: offset)
        return (line, units(from: lines.starts[line], to: offset))
    }

    /// The UTF-8 offset of a line (0-based) and UTF-16 character: a character past the line's end
    /// means its end (before `\r\n` or `\n`), a line past the text's end means the text's end, a
    /// negative line the text's start, and a character inside a surrogate pair its scalar's start.
    public func utf8Offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lines.starts.count else { return bytes.count }
        var lineEnd = line + 1 < lines.starts.count ? lines.starts[line + 1] - 1 : bytes.count
        if lineEnd > lines.starts[line], bytes[lineEnd - 1] == UInt8(ascii: "\r"), lineEnd < bytes.count { lineEnd -= 1 }
        var i = lines.starts[line]
        var units = 0
        while i < lineEnd {
            let width = bytes[i] >= 0xF0 ? 2 : 1
            if units + width > character { break }
            units += width
            i += 1
            while i < lineEnd, Self.isContinuation(bytes[i]) { i += 1 }
        }
        return i
    }

    /// The UTF-16 offset from the text's start (what a browser's text field counts) of a UTF-8
    /// offset (clamped to the text).
    public func utf16Offset(ofUTF8 offset: Int) -> Int {
        units(from: 0, to: clamped(offset))
    }

    /// The UTF-16 offset from the text's start of a line and column, both from 1 (the compiler's
    /// locations), the column counted in UTF-8 bytes from the line's start.
    public func utf16Offset(line: Int, column: Int) -> Int {
        let start = line <= 0 ? 0 : line - 1 < lines.starts.count ? lines.starts[line - 1] : bytes.count
        return utf16Offset(ofUTF8: start + max(0, column - 1))
    }

    /// The offset `scalars` Unicode scalars after the UTF-8 offset `offset` (a diagnostic's
    /// length is in scalars), clamped to the text.
    public func utf8Offset(_ offset: Int, advancedByScalars scalars: Int) -> Int {
        var i = clamped(offset)
        var left = scalars
        while left > 0, i < bytes.count {
            i += 1
            while i < bytes.count, Self.isContinuation(bytes[i]) { i += 1 }
            left -= 1
        }
        return i
    }

    /// UTF-16 units of the scalars starting in `lo..<hi`.
    private func units(from lo: Int, to hi: Int) -> Int {
        var units = 0
        for i in lo..<hi where !Self.isContinuation(bytes[i]) { units += bytes[i] >= 0xF0 ? 2 : 1 }
        return units
    }

    private func clamped(_ offset: Int) -> Int { max(0, min(offset, bytes.count)) }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
