/// A script with its host lines taken out: a line that starts a statement with `:` is for the
/// program running the script (the shell's `:commands`), never for the language. The lexer,
/// parser and checker only see `language`, in which each host line is left blank, so every
/// position in it is the script's own.
///
/// ```swift
/// let script = ScriptLines("just 1 | sink\n:trace on\njust 2 | sink")
/// script.language               // "just 1 | sink\n\njust 2 | sink"
/// script.hostLines[0].name      // "trace", argument "on", line 2
/// ```
public struct ScriptLines: Sendable {
    /// One `:` line.
    public struct HostLine: Sendable, Equatable {
        /// The script line it is on.
        public var line: Int
        /// Its column (of the `:`), from 1.
        public var column: Int
        /// The word after `:` (empty for a bare `:`).
        public var name: String
        /// The rest of the line, without surrounding blanks.
        public var argument: String
        /// The line as written, from the `:`, without trailing blanks.
        public var text: String
    }

    /// The language's text: the script with each host line blank.
    public let language: String
    /// The host lines, in order.
    public let hostLines: [HostLine]
    /// The line number of the text's first line.
    public let firstLine: Int
    private let lines: [Substring]

    /// - Parameters:
    ///   - text: A script, a REPL line, or a block of statements.
    ///   - firstLine: The line number of its first line (for a REPL's or a stream's running count).
    public init(_ text: String, firstLine: Int = 1) {
        self.init(lines: LineIndex.lines(of: text), firstLine: firstLine)
    }

    private init(lines: [Substring], firstLine: Int) {
        self.lines = lines
        self.firstLine = firstLine
        // Most texts have no host line: do not lex them twice.
        guard lines.contains(where: { Self.startsWithColon($0) }) else {
            language = lines.joined(separator: "\n")
            hostLines = []
            return
        }
        var kept: [Substring] = []
        var found: [HostLine] = []
        var pending = ""
        for (index, line) in lines.enumerated() {
            let atStatementStart = pending.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
            if atStatementStart, Self.startsWithColon(line) {
                found.append(Self.hostLine(line, number: firstLine + index))
                kept.append("")
                pending = ""
                continue
            }
            kept.append(line)
            pending += pending.isEmpty ? String(line) : "\n" + line
            if !Session.needsContinuation(pending) { pending = "" }
        }
        language = kept.joined(separator: "\n")
        hostLines = found
    }

    /// The script after line `line` (a host line just performed), to be read again.
    public func after(line: Int) -> ScriptLines {
        let skip = max(0, min(lines.count, line - firstLine + 1))
        return ScriptLines(lines: Array(lines.dropFirst(skip)), firstLine: firstLine + skip)
    }

    private static func startsWithColon(_ line: Substring) -> Bool {
        line.first { $0 != " " && $0 != "\t" } == ":"
    }

    private static func hostLine(_ line: Substring, number: Int) -> HostLine {
        let blanks = line.prefix { $0 == " " || $0 == "\t" }
        var text = line.dropFirst(blanks.count)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        let name = text.dropFirst().prefix { !$0.isWhitespace }
        let argument = text.dropFirst(1 + name.count).trimmingBlanks()
        return HostLine(
            line: number, column: blanks.count + 1, name: String(name), argument: String(argument), text: String(text))
    }
}

private extension Substring {
    func trimmingBlanks() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
