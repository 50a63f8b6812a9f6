/// Where each line of a UTF-8 text starts, and which line holds an offset: one index shared by
/// the compiler's locations (`SourceText`) and the language server's positions.
///
/// The one rule for where lines end, for every reader of a script or document (the lexer's
/// locations, `ScriptLines`, the language server's positions, `plumb fmt`, the exercises of
/// `plumb learn` and the room): a line ends after each `\n`; a `\r` just before it is part of
/// the line ending (`\r\n`), and a lone `\r` is a blank, as the lexer reads it. `lines(of:)`
/// splits text by this rule, `content(of:)` drops a line's `\r`.
///
/// ```swift
/// LineIndex.lines(of: "a\r\n:type x\nb")          // ["a\r", ":type x", "b"]
/// LineIndex.content(of: "a\r")                     // "a"
/// LineIndex.lines(of: "a\r\nb").joined(separator: "\n")   // "a\r\nb", as it was
/// ```
public struct LineIndex: Sendable {
    /// Offsets where each line starts; the first is 0.
    public let starts: [Int]

    /// Indexes `bytes`, a line ending after each `\n`.
    public init(_ bytes: [UInt8]) {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.starts = starts
    }

    /// The 0-based line holding `offset` (the last line for an offset past the end).
    public func line(of offset: Int) -> Int {
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

extension LineIndex {
    /// The lines of `text`, each up to its `\n` (not included). A `\r` before the `\n` is kept,
    /// so that joining the lines with `\n` gives `text` back byte for byte and every offset in
    /// a line is the text's own; read a line's words through `content(of:)`. (`String`'s own
    /// `split(separator: "\n")` does not split `\r\n`, which Swift counts as one `Character`.)
    public static func lines(of text: String) -> [Substring] {
        lines(of: text[...])
    }

    /// The lines of `text` (see `lines(of:)`).
    public static func lines(of text: Substring) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        let utf8 = text.utf8
        var i = utf8.startIndex
        while i != utf8.endIndex {
            if utf8[i] == UInt8(ascii: "\n") {
                lines.append(text[start..<i])
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        lines.append(text[start...])
        return lines
    }

    /// A line without the `\r` of its `\r\n` ending.
    public static func content(of line: Substring) -> Substring {
        guard line.utf8.last == UInt8(ascii: "\r") else { return line }
        return line[line.startIndex..<line.utf8.index(before: line.utf8.endIndex)]
    }
}
