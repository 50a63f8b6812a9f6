/// Text from a user's program (a `fail` message, a `print` label, a `handleEvents` message) made
/// safe to print: every control character becomes its visible picture (ESC → `␛`, a newline →
/// `␊`, DEL → `␡`; the C1 controls → `�`), one column each, so `fail "\u{1B}[?1049h"` cannot
/// switch the terminal to its alternate screen, hide the cursor, or break a line in two. Values
/// are already printed escaped (`"a\u{1B}"`); this covers the texts printed as they are.
enum TerminalText {
    /// `text` with its control characters replaced by their pictures (itself when it has none).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: out.append("\u{2421}")
            case 0x80..<0xA0: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` made safe line by line, keeping its line breaks (a message with `note:` lines).
    static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }
}
