/// Turns a text into tokens, collecting diagnostics instead of stopping at the first.
///
/// Newlines end statements only outside brackets and when the line does not end in `|`, so a
/// pipeline may continue on the next line. Bracket openings are tracked so an unterminated `{`, `[`
/// or `(` is reported where it opened.
struct Lexer {
    let source: SourceText
    var start: Int
    let end: Int
    var tokens: [Token] = []
    var diagnostics: [Diagnostic] = []
    /// Open brackets (byte, offset), for continuation and for "unterminated" errors.
    var open: [(UInt8, Int)] = []
    /// An unterminated string reached the end of the text.
    var openString = false
    /// The last look for a line starting with `|`: where it stopped and what it found.
    private var pipeLookahead = (end: -1, answer: false)

    init(source: SourceText, range: Range<Int>? = nil) {
        self.source = source
        self.start = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? source.bytes.count
    }

    static let punctuation3: Set<String> = ["..."]
    /// Two-character punctuation: the binary operators' (`BinaryOperator.all`).
    static let punctuation2: Set<String> = Set(BinaryOperator.symbols.filter { $0.utf8.count == 2 })
    /// One-character punctuation, with the binary operators' one-character symbols.
    static let punctuation1: Set<UInt8> = Set("|&{}[](),:.+-*/%<>!?=".utf8)
        .union(BinaryOperator.symbols.filter { $0.utf8.count == 1 }.flatMap(\.utf8))

    private func byte(_ i: Int) -> UInt8 { i < end ? source.bytes[i] : 0 }

    mutating func error(
        _ message: Message, _ offset: Int, _ length: Int = 1, notes: [Diagnostic.Note] = [], help: String? = nil, fixIts: [FixIt] = []
    ) {
        // Past the cap the parser reports "too many errors"; computing more locations is wasted work.
        guard diagnostics.count < Parser.maxDiagnostics else { return }
        diagnostics.append(source.diagnostic(message, at: Span(offset, length), notes: notes, help: help, fixIts: fixIts))
    }

    /// An edit inserting `text` at `offset`.
    private func inserting(_ text: String, at offset: Int) -> FixIt {
        FixIt(offset: offset, length: 0, replacement: text)
    }

    /// Lexes the whole range. Interpolations are lexed again by the parser when it meets them.
    mutating func run() {
        var i = start
        let bytes = source.bytes
        // A UTF-8 byte order mark at the start of a file (Windows editors write one): skip it.
        if i == 0, end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < end {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
            case UInt8(ascii: "\n"):
                let continues = open.count > 0 || tokens.last?.isPunct("|") == true || nextLineStartsWithPipe(after: i)
                if !continues, let last = tokens.last, last.kind != .newline {
                    tokens.append(Token(kind: .newline, span: Span(i, 1)))
                }
                i += 1
            case UInt8(ascii: "#"):
                while i < end, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "\""):
                i = lexString(i)
            case UInt8(ascii: "$"):
                var j = i + 1
                while j < end, isDigit(bytes[j]) { j += 1 }
                if j == i + 1 {
                    error(.missingClosureArgumentNumber, i)
                    tokens.append(Token(kind: .dollar(0), span: Span(i, 1)))
                } else if j - i > 3 {
                    error(.closureArgumentOutOfRange(text(i, j)), i, j - i)
                    tokens.append(Token(kind: .dollar(0), span: Span(i, j - i)))
                } else {
                    tokens.append(Token(kind: .dollar(Int(text(i + 1, j))!), span: Span(i, j - i)))
                }
                i = j
            case _ where isDigit(c):
                i = lexNumber(i)
            case _ where isIdentifierStart(c):
                var j = i + 1
                while j < end, isIdentifierStart(bytes[j]) || isDigit(bytes[j]) { j += 1 }
                tokens.append(Token(kind: .identifier(text(i, j)), span: Span(i, j - i)))
                i = j
            default:
                if i + 3 <= end, text(i, i + 3) == "..<" {
                    // Half-open ranges are Swift's, not the language's: say how to write it.
                    error(.halfOpenRange, i, 3, help: "write the closed range that ends one lower: 1..<5 is 1...4")
                    tokens.append(Token(kind: .punct("..."), span: Span(i, 3)))
                    i += 3
                } else if i + 3 <= end, Lexer.punctuation3.contains(text(i, i + 3)) {
                    tokens.append(Token(kind: .punct(text(i, i + 3)), span: Span(i, 3)))
                    i += 3
                } else if i + 2 <= end, Lexer.punctuation2.contains(text(i, i + 2)) {
                    tokens.append(Token(kind: .punct(text(i, i + 2)), span: Span(i, 2)))
                    i += 2
                } else if Lexer.punctuation1.contains(c) {
                    trackBracket(c, at: i)
                    tokens.append(Token(kind: .punct(String(UnicodeScalar(c))), span: Span(i, 1)))
                    i += 1
                } else {
                    // One diagnostic for a run of the same bad character, not one per byte.
                    let (message, next) = classifyBad(i)
                    var k = next
                    while k < end, !isPlain(bytes[k]) {
                        let (m, n) = classifyBad(k)
                        if m != message { break }
                        k = n
                    }
                    error(message, i, k - i)
                    i = k
                }
            }
        }
        for (bracket, offset) in open.prefix(1) {
            let closer = bracket == UInt8(ascii: "{") ? "}" : bracket == UInt8(ascii: "[") ? "]" : ")"
            // After the last token, so a trailing comment does not swallow the closer.
            let last = tokens.last { $0.kind != .newline }.map { $0.span.offset + $0.span.length } ?? end
            let space = bracket == UInt8(ascii: "{") ? " " : ""
            error(.unterminatedBracket(bracket), offset, 1, help: "add '\(closer)'", fixIts: [inserting(space + closer, at: last)])
        }
        tokens.append(Token(kind: .eof, span: Span(end, 0)))
    }

    /// Whether the next line that holds a token starts with `|` (not `||`): a pipeline broken
    /// before its `|` goes on. Blank lines and comment lines between are skipped; the answer is
    /// kept for the newlines it skipped, so a run of blank lines is scanned once.
    private mutating func nextLineStartsWithPipe(after newline: Int) -> Bool {
        guard let last = tokens.last, last.kind != .newline else { return false }
        if newline < pipeLookahead.end { return pipeLookahead.answer }
        let bytes = source.bytes
        var i = newline + 1
        var answer = false
        scan: while i < end {
            switch bytes[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                i += 1
            case UInt8(ascii: "#"):
                while i < end, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "|"):
                answer = i + 1 >= end || bytes[i + 1] != UInt8(ascii: "|")
                break scan
            default:
                break scan
            }
        }
        pipeLookahead = (i, answer)
        return answer
    }

    private mutating func trackBracket(_ c: UInt8, at offset: Int) {
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
            open.append((c, offset))
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
            let opener: UInt8 = c == UInt8(ascii: "}") ? UInt8(ascii: "{") : c == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "(")
            if let index = open.lastIndex(where: { $0.0 == opener }) {
                open.removeSubrange(index...)
            }
        default: break
        }
    }

    /// The message for the bad character at `i`, and where it ends.
    private func classifyBad(_ i: Int) -> (Message, Int) {
        let bytes = source.bytes
        let c = bytes[i]
        var j = i + 1
        if c >= 0x80 { while j < end, bytes[j] & 0xC0 == 0x80 { j += 1 } }
        let scalar = text(i, j).unicodeScalars.first ?? "\u{FFFD}"
        if scalar == "\u{FFFD}" { return (.invalidUtf8, j) }
        if c < 0x20 || c == 0x7F { return (.controlCharacter(scalar.value), j) }
        return (.unexpectedCharacter(scalar), j)
    }

    private mutating func lexNumber(_ i: Int) -> Int {
        let bytes = source.bytes
        var j = i
        while j < end, isDigit(bytes[j]) || bytes[j] == UInt8(ascii: "_") { j += 1 }
        var isDouble = false
        if j + 1 < end, bytes[j] == UInt8(ascii: "."), isDigit(bytes[j + 1]) {
            isDouble = true
            j += 1
            while j < end, isDigit(bytes[j]) || bytes[j] == UInt8(ascii: "_") { j += 1 }
        }
        // An exponent (1e-05, 2.5E+3) makes a double.
        if j < end, bytes[j] | 0x20 == UInt8(ascii: "e") {
            var k = j + 1
            if k < end, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
            if k < end, isDigit(bytes[k]) {
                while k < end, isDigit(bytes[k]) { k += 1 }
                isDouble = true
                j = k
            }
        }
        let digits = text(i, j).replacingUnderscores()
        // A unit right after the number makes a duration.
        var k = j
        // `µs` (U+00B5, as plumb prints it) and `μs` (U+03BC): two bytes each.
        if k + 1 < end, (bytes[k] == 0xC2 && bytes[k + 1] == 0xB5) || (bytes[k] == 0xCE && bytes[k + 1] == 0xBC) { k += 2 }
        while k < end, isIdentifierStart(bytes[k]) || isDigit(bytes[k]) { k += 1 }
        let unit = text(j, k)
        if !unit.isEmpty {
            let scale = DurationLiteral.units[unit]
            guard let scale else {
                error(.unknownDurationUnit(unit), j, k - j)
                tokens.append(Token(kind: .duration(0), span: Span(i, k - i)))
                return k
            }
            let value = (Double(digits) ?? .infinity) * scale
            if !value.isFinite || value >= DurationLiteral.limitNanoseconds {
                error(.durationTooLong(text(i, k)), i, k - i)
                tokens.append(Token(kind: .duration(0), span: Span(i, k - i)))
            } else if value != value.rounded(.down), scale >= 1 {
                // sub-nanosecond fractions are rounded down
                tokens.append(Token(kind: .duration(Int64(value.rounded(.down))), span: Span(i, k - i)))
            } else {
                tokens.append(Token(kind: .duration(Int64(value)), span: Span(i, k - i)))
            }
            return k
        }
        if isDouble {
            let value = Double(digits) ?? .infinity
            if !value.isFinite {
                error(.floatingPointLiteralTooLarge(text(i, j)), i, j - i)
            }
            tokens.append(Token(kind: .double(value.isFinite ? value : 0), span: Span(i, j - i)))
        } else if let value = Int(digits) {
            tokens.append(Token(kind: .int(value), span: Span(i, j - i)))
        } else if digits == "9223372036854775808", i > 0, source.bytes[i - 1] == UInt8(ascii: "-") {
            // `-9223372036854775808` is Int.min: its magnitude fits no Int, so the token carries
            // Int.min and the parser's `-literal` fold keeps it.
            tokens.append(Token(kind: .int(.min), span: Span(i, j - i)))
        } else {
            error(.integerLiteralOverflow(text(i, j)), i, j - i)
            tokens.append(Token(kind: .int(0), span: Span(i, j - i)))
        }
        return j
    }

    private mutating func lexString(_ i: Int) -> Int {
        let bytes = source.bytes
        var j = i + 1
        var parts: [StringToken] = []
        var buffer: [UInt8] = []
        func flush() {
            if !buffer.isEmpty {
                parts.append(.text(String(decoding: buffer, as: UTF8.self)))
                buffer.removeAll()
            }
        }
        while true {
            guard j < end, bytes[j] != UInt8(ascii: "\n") else {
                error(
                    .unterminatedString, i, 1, notes: [Diagnostic.Note("the string starts here and runs to the end of the line")], help: "add '\"'",
                    fixIts: [inserting("\"", at: trimmedEnd(j))])
                if j >= end { openString = true }
                flush()
                tokens.append(Token(kind: .string(parts), span: Span(i, j - i)))
                return j
            }
            let c = bytes[j]
            if c == UInt8(ascii: "\"") {
                j += 1
                break
            }
            if c == UInt8(ascii: "\\") {
                let e = byte(j + 1)
                switch e {
                case UInt8(ascii: "n"): buffer.append(10); j += 2
                case UInt8(ascii: "t"): buffer.append(9); j += 2
                case UInt8(ascii: "r"): buffer.append(13); j += 2
                case UInt8(ascii: "0"): buffer.append(0); j += 2
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): buffer.append(e); j += 2
                case UInt8(ascii: "("):
                    flush()
                    // Find the matching `)`, skipping nested strings; the parser lexes the inside.
                    var k = j + 2
                    var depth = 1
                    var inString = false
                    while k < end, bytes[k] != UInt8(ascii: "\n") {
                        let b = bytes[k]
                        if inString {
                            if b == UInt8(ascii: "\\") { k += 1 } else if b == UInt8(ascii: "\"") { inString = false }
                        } else if b == UInt8(ascii: "\"") {
                            inString = true
                        } else if b == UInt8(ascii: "(") {
                            depth += 1
                        } else if b == UInt8(ascii: ")") {
                            depth -= 1
                            if depth == 0 { break }
                        }
                        k += 1
                    }
                    guard k < end, bytes[k] == UInt8(ascii: ")") else {
                        // When the inside ends in the string's own closing quote (`"a\(1"`), close the
                        // interpolation before it; otherwise close both at the end of the line.
                        let stop = trimmedEnd(k)
                        let fix =
                            inString && stop > j + 2 && bytes[stop - 1] == UInt8(ascii: "\"")
                            ? inserting(")", at: stop - 1) : inserting(")\"", at: stop)
                        error(.unterminatedInterpolation, j, 2, help: "add ')'", fixIts: [fix])
                        // The string ends here too; one error is enough.
                        if k >= end { openString = true }
                        flush()
                        tokens.append(Token(kind: .string(parts), span: Span(i, k - i)))
                        return k
                    }
                    parts.append(.interpolation(offset: j + 2, length: k - j - 2))
                    j = k + 1
                case UInt8(ascii: "u") where byte(j + 2) == UInt8(ascii: "{"):
                    var k = j + 3
                    while k < end, isHexDigit(bytes[k]), k - j < 12 { k += 1 }
                    if byte(k) == UInt8(ascii: "}"), let v = UInt32(text(j + 3, k), radix: 16), let s = UnicodeScalar(v) {
                        buffer.append(contentsOf: Array(String(Character(s)).utf8))
                        j = k + 1
                    } else {
                        error(.invalidUnicodeEscape, j, max(2, k - j))
                        j = max(k, j + 2)
                    }
                default:
                    error(.invalidEscape, j, e == 0 ? 1 : 2, notes: [Diagnostic.Note("valid escapes: \\n \\t \\r \\0 \\\\ \\\" \\u{…} \\(…)")])
                    j += e == 0 ? 1 : 2
                }
                continue
            }
            if c < 0x20 && c != 9 || c == 0x7F {
                let escape = c == 0 ? "\\0" : c == 13 ? "\\r" : "\\u{\(String(c, radix: 16))}"
                error(.controlCharacterInString(UInt32(c)), j, fixIts: [FixIt(offset: j, length: 1, replacement: escape)])
                j += 1
                continue
            }
            if c >= 0x80 {
                var k = j + 1
                while k < end, bytes[k] & 0xC0 == 0x80 { k += 1 }
                let piece = text(j, k)
                if piece.unicodeScalars.contains("\u{FFFD}") {
                    error(.invalidUtf8, j, k - j)
                }
                buffer.append(contentsOf: bytes[j..<k])
                j = k
                continue
            }
            buffer.append(c)
            j += 1
        }
        flush()
        tokens.append(Token(kind: .string(parts), span: Span(i, j - i)))
        return j
    }

    /// `offset` moved back over spaces, tabs and a carriage return, so an insertion lands after the
    /// line's last character.
    private func trimmedEnd(_ offset: Int) -> Int {
        var k = offset
        while k > start, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(source.bytes[k - 1]) { k -= 1 }
        return k
    }

    func text(_ i: Int, _ j: Int) -> String {
        String(decoding: source.bytes[max(start, i)..<min(max(i, j), end)], as: UTF8.self)
    }
}

/// Bytes that start a token or are whitespace: a run of anything else is reported once.
func isPlain(_ c: UInt8) -> Bool {
    c == 32 || c == 9 || c == 10 || c == 13 || isDigit(c) || isIdentifierStart(c) || c == UInt8(ascii: "\"")
        || c == UInt8(ascii: "$") || c == UInt8(ascii: "#") || Lexer.punctuation1.contains(c)
}

func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 97 && c | 0x20 <= 102) }
func isIdentifierStart(_ c: UInt8) -> Bool { (c | 0x20 >= 97 && c | 0x20 <= 122) || c == 95 }
func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

extension String {
    fileprivate func replacingUnderscores() -> String { filter { $0 != "_" } }
}
