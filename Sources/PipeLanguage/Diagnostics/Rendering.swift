extension Diagnostic {
    /// Compiler-style text: `file:line:col: error: message`, the source line, a caret and tildes
    /// under the culprit, then `help:` and `note:` lines.
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
        var out = "\(bold)\(location):\(reset) \(tint)\(severity.word):\(reset) \(bold)\(Self.capped(message))\(reset)"
        if let text = Self.sourceLine(source, line: lineInSource) {
            // Tabs become one space so the caret lines up; very long lines are cut around the caret.
            var scalars = Array(text.unicodeScalars).map { $0 == "\t" ? " " : $0 }
            var column = max(1, location.column)
            let window = 160
            var prefix = ""
            if scalars.count > window {
                let start = max(0, min(column - 1 - window / 2, scalars.count - window))
                scalars = Array(scalars[start..<min(scalars.count, start + window)])
                column -= start
                if start > 0 { prefix = "…" }
            }
            let shown = String(String.UnicodeScalarView(scalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
            out += "\n" + prefix + shown
            let pad = String(repeating: " ", count: prefix.count + min(column - 1, scalars.count))
            let tildes = String(repeating: "~", count: max(0, min(length, scalars.count - column + 1) - 1))
            out += "\n" + pad + green + "^" + tildes + reset
        }
        if let help { out += "\n\(green)help:\(reset) \(Self.capped(help))" }
        for note in notes { out += "\n\(bold)note:\(reset) \(Self.capped(note))" }
        return out
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
