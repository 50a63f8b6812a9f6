/// A text as its statements of tokens, each token with the trivia around it (spaces, newlines,
/// comments, host lines), so that printing the tree gives back the text byte for byte.
///
/// The parser's `StatementAST` forgets layout; this tree keeps it, for tools that rewrite a file
/// (the formatter) and must not lose a comment.
///
/// ```swift
/// let tree = SyntaxTree("just 1   # one\n|  map { $0 }\n")
/// tree.description == "just 1   # one\n|  map { $0 }\n"   // true
/// tree.statements.count                                  // 1
/// ```
public struct SyntaxTree: Sendable, CustomStringConvertible {
    /// One piece of trivia.
    public enum Trivia: Sendable, Hashable {
        /// Spaces, tabs and carriage returns.
        case spaces(String)
        case newline
        /// `# …` up to the end of its line, without the newline.
        case comment(String)
        /// A `:command` line for the shell (`:load lib.pipe`), without its newline.
        case hostLine(String)
        /// A UTF-8 byte order mark at the start of the file.
        case byteOrderMark
        /// Bytes the lexer rejected (a stray `€`); a text holding them has errors.
        case unknown(String)

        /// The trivia as written.
        public var text: String {
            switch self {
            case .spaces(let s), .comment(let s), .hostLine(let s), .unknown(let s): s
            case .newline: "\n"
            case .byteOrderMark: "\u{FEFF}"
            }
        }
    }

    /// A token with the trivia before it (from the previous line's end) and after it (up to the
    /// end of its line).
    public struct SyntaxToken: Sendable {
        /// The trivia before the token.
        public var leadingTrivia: [Trivia]
        /// The token as written (empty for the end of the file).
        public var text: String
        /// The trivia after the token, up to its line's end.
        public var trailingTrivia: [Trivia]
        /// Where the token starts, in UTF-8 bytes.
        public var offset: Int
        /// Where the trivia before it starts, in UTF-8 bytes.
        public var leadingOffset: Int
        var kind: TokenKind

        /// Whether the token is the punctuation `p`.
        func isPunct(_ p: String) -> Bool { if case .punct(let q) = kind { q == p } else { false } }
    }

    /// The tokens, the last one the end of the file (empty text, the file's last trivia before it).
    public let tokens: [SyntaxToken]
    /// Each statement's tokens, as a range of `tokens`.
    public let statements: [Range<Int>]
    /// The text with its host lines blanked (every byte offset kept): what the lexer and parser see.
    let languageText: String

    /// Splits `text` into tokens with their trivia and groups them into statements. Never fails: a
    /// text with errors still round-trips (its bad bytes are `.unknown` trivia).
    public init(_ text: String) {
        let bytes = Array(text.utf8)
        // Host lines are the shell's, not the language's: blank them (keeping every byte offset)
        // before lexing, and keep them as trivia.
        var hostStarts: [Int: Int] = [:]
        var lexed = bytes
        let lines = LineIndex(bytes)
        for host in ScriptLines(text).hostLines where host.line - 1 < lines.starts.count {
            let start = lines.starts[host.line - 1] + host.column - 1
            // ScriptLines and this index split lines by one rule (`LineIndex.lines(of:)`); trust
            // only a `:` found here all the same.
            guard start < bytes.count, bytes[start] == UInt8(ascii: ":") else { continue }
            var stop = start
            while stop < bytes.count, bytes[stop] != UInt8(ascii: "\n") { stop += 1 }
            hostStarts[start] = stop
            for i in start..<stop { lexed[i] = UInt8(ascii: " ") }
        }
        languageText = String(decoding: lexed, as: UTF8.self)
        var lexer = Lexer(source: SourceText(languageText, file: ""))
        lexer.run()

        var tokens: [SyntaxToken] = []
        var statements: [Range<Int>] = []
        var statementStart = 0
        var cursor = 0
        var pendingTrailing: [Trivia] = []
        var pendingLeading: [Trivia] = []
        var pendingLeadingOffset = 0
        for token in lexer.tokens {
            if token.kind == .newline {
                if tokens.count > statementStart { statements.append(statementStart..<tokens.count) }
                statementStart = tokens.count
                continue
            }
            let start = max(cursor, min(token.span.offset, bytes.count))
            let stop = token.kind == .eof ? bytes.count : max(start, min(token.span.offset + token.span.length, bytes.count))
            let gap = Self.trivia(bytes, cursor..<start, hostStarts: hostStarts)
            // Up to the first newline the gap trails the previous token; the rest leads this one.
            let split = tokens.isEmpty ? 0 : (gap.firstIndex(of: .newline) ?? gap.count)
            pendingTrailing = Array(gap[..<split])
            pendingLeading = Array(gap[split...])
            pendingLeadingOffset = cursor + pendingTrailing.reduce(0) { $0 + $1.text.utf8.count }
            if !tokens.isEmpty { tokens[tokens.count - 1].trailingTrivia = pendingTrailing }
            tokens.append(
                SyntaxToken(
                    leadingTrivia: pendingLeading, text: String(decoding: bytes[start..<stop], as: UTF8.self), trailingTrivia: [],
                    offset: start, leadingOffset: pendingLeadingOffset, kind: token.kind))
            cursor = stop
        }
        if tokens.count - 1 > statementStart { statements.append(statementStart..<(tokens.count - 1)) }
        self.tokens = tokens
        self.statements = statements
    }

    /// The text, rebuilt from the tokens and their trivia.
    public var description: String {
        var out = ""
        for token in tokens {
            for piece in token.leadingTrivia { out += piece.text }
            out += token.text
            for piece in token.trailingTrivia { out += piece.text }
        }
        return out
    }

    /// The trivia in `range`, which holds no token.
    private static func trivia(_ bytes: [UInt8], _ range: Range<Int>, hostStarts: [Int: Int]) -> [Trivia] {
        var out: [Trivia] = []
        var i = range.lowerBound
        func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }
        while i < range.upperBound {
            let c = bytes[i]
            if i == 0, range.upperBound >= 3, c == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                out.append(.byteOrderMark)
                i += 3
            } else if let stop = hostStarts[i], stop > i, stop <= range.upperBound {
                out.append(.hostLine(text(i, stop)))
                i = stop
            } else if c == UInt8(ascii: "\n") {
                out.append(.newline)
                i += 1
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                var j = i
                while j < range.upperBound, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") || bytes[j] == UInt8(ascii: "\r") {
                    j += 1
                }
                out.append(.spaces(text(i, j)))
                i = j
            } else if c == UInt8(ascii: "#") {
                var j = i
                while j < range.upperBound, bytes[j] != UInt8(ascii: "\n") { j += 1 }
                out.append(.comment(text(i, j)))
                i = j
            } else {
                var j = i + 1
                while j < range.upperBound, hostStarts[j] == nil,
                    ![UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "#")].contains(bytes[j])
                {
                    j += 1
                }
                // Never split a character: a run ends on a scalar's first byte.
                while j < range.upperBound, bytes[j] & 0xC0 == 0x80 { j += 1 }
                out.append(.unknown(text(i, j)))
                i = j
            }
        }
        return out
    }
}
