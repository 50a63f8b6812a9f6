extension Diagnostic {
    /// Compiler-style text: `file:line:col: error[E302]: message` (the id in the heading, as rustc
    /// prints it, so a learner can look it up), the source line, a caret and tildes under the
    /// culprit, then `help:` and `note:` lines. The line saying where the explanation is comes
    /// once after a batch of diagnostics: `DiagnosticID.explanationHint(for:interactive:)`.
    ///
    /// - Parameters:
    ///   - source: The text the diagnostic's location refers to (the whole text given to `compile`).
    ///   - color: Whether to add ANSI colours (only for terminals).
    /// - Returns: Lines separated by `\n`, without a trailing newline.
    ///
    /// ```swift
    /// print(diagnostic.rendered(source: text, color: isatty(1) != 0))
    /// ```
    public func rendered(source: String, color: Bool) -> String {
        let bold = color ? "\u{1B}[1m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        let tint: String
        switch severity {
        case .error: tint = color ? "\u{1B}[1;31m" : ""
        case .warning: tint = color ? "\u{1B}[1;35m" : ""
        case .note: tint = color ? "\u{1B}[1;36m" : ""
        }
        let green = color ? "\u{1B}[1;32m" : ""
        // Messages quote names from the source; a 10 MB identifier must not make a 10 MB message.
        var out = "\(bold)\(location):\(reset) \(tint)\(severity.word)[\(id.code)]:\(reset) \(bold)\(Self.capped(message))\(reset)"
        if let text = Self.sourceLine(source, line: lineInSource) {
            out += Self.annotated(text, column: location.column, length: length, caret: (green, reset))
        }
        if let help { out += "\n\(green)help:\(reset) \(Self.capped(help))" }
        for note in notes {
            guard let range = note.range else {
                out += "\n\(bold)note:\(reset) \(Self.capped(note.message))"
                continue
            }
            // A note that points at text is said as a compiler says it: its own position, and its
            // line with a caret when that line is in `source`.
            let cyan = color ? "\u{1B}[1;36m" : ""
            out += "\n\(bold)\(range.location):\(reset) \(cyan)note:\(reset) \(Self.capped(note.message))"
            if let line = note.lineInSource, let text = Self.sourceLine(source, line: line) {
                let length = Self.scalars(inUTF8: range.length, of: text, from: range.location.column)
                out += Self.annotated(text, column: range.location.column, length: length, caret: (green, reset))
            }
        }
        return out
    }

    /// `\n` the line, `\n` a caret and tildes under `length` scalars from `column`. Tabs become
    /// one space so the caret lines up; very long lines are cut around the caret.
    private static func annotated(_ text: Substring, column: Int, length: Int, caret: (String, String)) -> String {
        var scalars = Array(text.unicodeScalars).map { $0 == "\t" ? " " : $0 }
        var column = max(1, column)
        let window = 160
        var prefix = ""
        if scalars.count > window {
            let start = max(0, min(column - 1 - window / 2, scalars.count - window))
            scalars = Array(scalars[start..<min(scalars.count, start + window)])
            column -= start
            if start > 0 { prefix = "…" }
        }
        let shown = String(String.UnicodeScalarView(scalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        let pad = String(repeating: " ", count: prefix.count + min(column - 1, scalars.count))
        let tildes = String(repeating: "~", count: max(0, min(length, scalars.count - column + 1) - 1))
        return "\n" + prefix + shown + "\n" + pad + caret.0 + "^" + tildes + caret.1
    }

    /// How many Unicode scalars of `line`, from the 1-based `column`, `bytes` UTF-8 bytes hold (at
    /// least 1; at most to the end of the line).
    private static func scalars(inUTF8 bytes: Int, of line: Substring, from column: Int) -> Int {
        var count = 0
        var used = 0
        for scalar in line.unicodeScalars.dropFirst(max(0, column - 1)) {
            guard used < bytes else { break }
            used += UTF8.width(scalar)
            count += 1
        }
        return max(1, count)
    }

    /// The longest word (a run of non-space characters, such as a quoted name) a rendered message
    /// shows whole; a longer one keeps its first 40 and last 20 characters around `…`.
    public static let longestShownWord = 80

    /// `text` with every word longer than `longestShownWord` shortened around `…`, so that the
    /// rendering of a diagnostic about a huge name stays a line long.
    ///
    /// ```swift
    /// Diagnostic.capped("unknown operator '" + String(repeating: "x", count: 1_000_000) + "'")
    /// // unknown operator 'xxx…xxx' (the word cut to 61 characters)
    /// ```
    public static func capped(_ text: String) -> String {
        guard text.unicodeScalars.count > longestShownWord else { return text }
        var out = String.UnicodeScalarView()
        var word: [Unicode.Scalar] = []
        func endWord() {
            if word.count > longestShownWord {
                out.append(contentsOf: word.prefix(40))
                out.append("…")
                out.append(contentsOf: word.suffix(20))
            } else {
                out.append(contentsOf: word)
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                endWord()
                out.append(scalar)
            } else {
                word.append(scalar)
            }
        }
        endWord()
        return String(out)
    }

    static func sourceLine(_ source: String, line: Int) -> Substring? {
        guard line >= 1 else { return nil }
        var current = 1
        var start = source.startIndex
        var index = source.startIndex
        while index < source.endIndex {
            if source[index] == "\n" || source[index] == "\r\n" {
                if current == line { return source[start..<index] }
                current += 1
                start = source.index(after: index)
            }
            index = source.index(after: index)
        }
        return current == line ? source[start..<source.endIndex] : nil
    }
}
