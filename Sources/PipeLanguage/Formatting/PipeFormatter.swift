/// The house style for `.pipe` files (`Docs/Formatting.md`), as edits to the space between tokens.
///
/// Tokens are never changed, added, removed or reordered: only the trivia between them is
/// rewritten, so comments stay where they were and the program means the same. A text with
/// errors is not formatted.
///
/// ```swift
/// let formatted = try PipeFormatter.format("just 1|map{$0+1}   # one\n\n\n").get()
/// // "just 1 | map { $0 + 1 } # one\n"
/// ```
public enum PipeFormatter {
    /// The widest a line may be before a pipeline is broken before each `|`.
    public static let maxWidth = 100
    /// Spaces per level of nesting, and before a broken pipeline's `|`.
    public static let indentWidth = 4

    /// Why a text was left alone: its first error.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// The error that stops formatting (a syntax error, with its position).
        public var diagnostic: Diagnostic
        /// `line:col: message`, for people.
        public var description: String {
            "\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.message)"
        }
    }

    /// The formatted text.
    /// - Parameters:
    ///   - text: A `.pipe` file.
    ///   - file: The name diagnostics show.
    /// - Returns: The text in the house style, or why it cannot be formatted.
    public static func format(_ text: String, file: String = "") -> Result<String, Refusal> {
        edits(text, file: file).map { apply($0, to: text) }
    }

    /// The edits that format `text`, each replacing the space between two tokens.
    /// - Parameters:
    ///   - text: A `.pipe` file.
    ///   - file: The name diagnostics show.
    ///   - range: When given, only edits that touch this UTF-8 range (range formatting).
    /// - Returns: Edits in increasing offset order, none overlapping; or why it cannot be formatted.
    public static func edits(_ text: String, file: String = "", in range: Range<Int>? = nil) -> Result<[FixIt], Refusal> {
        let tree = SyntaxTree(text)
        var parser = Parser(source: SourceText(tree.languageText, file: file))
        _ = parser.parseProgram()
        if let error = parser.diagnostics.first(where: { $0.severity == .error }) { return .failure(Refusal(diagnostic: error)) }
        let gaps = GapLayout(tree: tree, marks: parser.layout).render()
        var edits: [FixIt] = []
        for (index, replacement) in gaps.enumerated() {
            let span = tree.gap(before: index)
            if let range, span.upperBound < range.lowerBound || span.lowerBound > range.upperBound { continue }
            if tree.gapText(before: index) != replacement {
                edits.append(FixIt(offset: span.lowerBound, length: span.count, replacement: replacement))
            }
        }
        return .success(edits)
    }

    /// `text` with `edits` (sorted, not overlapping) made.
    static func apply(_ edits: [FixIt], to text: String) -> String {
        var bytes = Array(text.utf8)
        for edit in edits.reversed() {
            bytes.replaceSubrange(edit.offset..<(edit.offset + edit.length), with: Array(edit.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SyntaxTree {
    /// The bytes between token `index - 1` and token `index` (from the start for the first).
    func gap(before index: Int) -> Range<Int> {
        let start = index == 0 ? 0 : tokens[index - 1].offset + tokens[index - 1].text.utf8.count
        return start..<tokens[index].offset
    }

    /// The trivia between token `index - 1` and token `index`.
    func trivia(before index: Int) -> [Trivia] {
        (index == 0 ? [] : tokens[index - 1].trailingTrivia) + tokens[index].leadingTrivia
    }

    /// The text between token `index - 1` and token `index`.
    func gapText(before index: Int) -> String { trivia(before: index).map(\.text).joined() }
}

/// Decides what goes between each pair of tokens.
private struct GapLayout {
    let tree: SyntaxTree
    let marks: LayoutMarks
    /// Bracket depth before each token.
    var depth: [Int] = []
    /// The trivia of each gap, after a line break after `|` was moved before it.
    var pieces: [[SyntaxTree.Trivia]] = []

    init(tree: SyntaxTree, marks: LayoutMarks) {
        self.tree = tree
        self.marks = marks
        var level = 0
        for token in tree.tokens {
            depth.append(level)
            if token.isPunct("{") || token.isPunct("(") || token.isPunct("[") { level += 1 }
            if token.isPunct("}") || token.isPunct(")") || token.isPunct("]") { level = max(0, level - 1) }
        }
        pieces = tree.tokens.indices.map { tree.trivia(before: $0) }
        // `a |` + newline + `b` becomes `a` + newline + `| b`: pipelines break before `|`.
        for statement in tree.statements {
            for index in statement where index > statement.lowerBound && index + 1 < statement.upperBound {
                guard tree.tokens[index].isPunct("|"), pieces[index + 1].contains(where: \.breaksLine) else { continue }
                pieces[index] += pieces[index + 1]
                pieces[index + 1] = []
            }
        }
    }

    /// The new text of every gap, indexed like the tokens (the last is before the end of the file).
    func render() -> [String] {
        var out = tree.tokens.indices.map { tree.gapText(before: $0) }
        let starts = Set(tree.statements.map(\.lowerBound))
        for index in tree.tokens.indices where index == 0 || index == tree.tokens.count - 1 || starts.contains(index) {
            out[index] = boundary(index)
        }
        for statement in tree.statements {
            let topPipes = statement.filter { $0 > statement.lowerBound && depth[$0] == 0 && tree.tokens[$0].isPunct("|") }
            var broken = topPipes.contains { pieces[$0].contains(where: \.breaksLine) }
            if !broken, !topPipes.isEmpty {
                let flat = render(statement, broken: false, firstPipe: topPipes.first)
                var line = tree.tokens[statement.lowerBound].text
                for index in statement.dropFirst() {
                    line += flat[index - statement.lowerBound - 1] + tree.tokens[index].text
                }
                let firstLine = LineIndex.lines(of: line).first.map(LineIndex.content) ?? ""
                broken = firstLine.unicodeScalars.count > PipeFormatter.maxWidth
            }
            for (offset, gap) in render(statement, broken: broken, firstPipe: topPipes.first).enumerated() {
                out[statement.lowerBound + 1 + offset] = gap
            }
        }
        return out
    }

    /// The gaps inside `statement` (after its first token).
    private func render(_ statement: Range<Int>, broken: Bool, firstPipe: Int?) -> [String] {
        statement.dropFirst().map { index in
            let continued = broken && firstPipe.map { index >= $0 } == true
            let next = tree.tokens[index]
            let isCloser = next.isPunct("}") || next.isPunct(")") || next.isPunct("]")
            let level = max(0, depth[index] - (isCloser ? 1 : 0))
            let indent = String(repeating: " ", count: PipeFormatter.indentWidth * level + (continued ? PipeFormatter.indentWidth : 0))
            let commentIndent = String(
                repeating: " ", count: PipeFormatter.indentWidth * depth[index] + (continued ? PipeFormatter.indentWidth : 0))
            let forced = broken && depth[index] == 0 && next.isPunct("|")
            guard forced || pieces[index].contains(where: \.breaksLine) else { return spacing(before: index) }
            var text = ""
            var newlines = 0
            for piece in pieces[index] {
                switch piece {
                case .newline: newlines += 1
                case .comment(let comment):
                    if newlines == 0 {
                        text += " " + comment.trimmedTrailing
                    } else {
                        text += "\n" + (newlines > 1 ? "\n" : "") + commentIndent + comment.trimmedTrailing
                    }
                    newlines = 0
                case .hostLine(let line):
                    text += "\n" + (newlines > 1 ? "\n" : "") + line.trimmedTrailing
                    newlines = 0
                case .spaces, .byteOrderMark, .unknown: break
                }
            }
            return text + "\n" + (newlines > 1 ? "\n" : "") + indent
        }
    }

    /// The gap before a statement, the first token or the end of the file: comments and host lines
    /// at the margin, at most one blank line between things, one newline at the end of the file.
    private func boundary(_ index: Int) -> String {
        var text = ""
        var newlines = 0
        var written = index > 0
        for piece in pieces[index] {
            switch piece {
            case .byteOrderMark: text += piece.text
            case .newline: newlines += 1
            case .comment(let line), .hostLine(let line):
                if !written {
                    text += line.trimmedTrailing
                } else if newlines == 0 && piece.isComment {
                    text += " " + line.trimmedTrailing
                } else {
                    text += "\n" + (newlines > 1 ? "\n" : "") + line.trimmedTrailing
                }
                written = true
                newlines = 0
            case .spaces, .unknown: break
            }
        }
        if index == tree.tokens.count - 1 { return written ? text + "\n" : text }
        return written ? text + "\n" + (newlines > 1 ? "\n" : "") : text
    }

    /// The space between two tokens on one line.
    private func spacing(before index: Int) -> String {
        let previous = tree.tokens[index - 1]
        let next = tree.tokens[index]
        if previous.isPunct("(") || previous.isPunct("[") || next.isPunct(")") || next.isPunct("]") || next.isPunct(",") { return "" }
        if previous.isPunct("{") || next.isPunct("}") { return " " }
        if previous.isPunct(".") || next.isPunct(".") || previous.isPunct("...") || next.isPunct("...") { return "" }
        // `- 1` is not folded into the literal `-1`: keep the space the text had.
        if marks.unaryOperators.contains(previous.offset) { return pieces[index].isEmpty ? "" : " " }
        if marks.labelColons.contains(next.offset) || marks.attachedOpeners.contains(next.offset) { return "" }
        return " "
    }
}

extension SyntaxTree.Trivia {
    /// A newline, or a comment (which a newline always follows).
    fileprivate var breaksLine: Bool {
        switch self {
        case .newline, .comment, .hostLine: true
        default: false
        }
    }

    fileprivate var isComment: Bool { if case .comment = self { true } else { false } }
}

extension String {
    fileprivate var trimmedTrailing: String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
        return String(s)
    }
}
