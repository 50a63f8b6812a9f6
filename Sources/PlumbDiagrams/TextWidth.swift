/// Terminal widths of text, and the one way labels and values are made safe and shortened.

extension Character {
    /// Columns this character takes in a terminal: 2 for East Asian wide and emoji, 0 for
    /// zero-width marks, 1 otherwise. An approximation of `wcwidth` that needs no C library.
    var terminalWidth: Int {
        if isASCII { return 1 }
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x200B...0x200F, 0x2060...0x2064: return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            switch first.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: return 1
            }
        }
    }
}

extension StringProtocol {
    /// Columns this text takes in a terminal (see `Character.terminalWidth`).
    var terminalWidth: Int { reduce(0) { $0 + $1.terminalWidth } }
}

/// The text with control characters made harmless: a tab or newline becomes a space, any other
/// control (ESC above all, which would let a value drive the terminal) becomes `�`.
func sanitized(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            out.append(character == "\t" || character == "\n" || character == "\r\n" || character == "\r" ? " " : "\u{FFFD}")
        } else {
            out.append(character)
        }
    }
    return out
}

/// The text cut to at most `width` terminal columns, ending with `…` when something was cut.
func shortened(_ text: String, toWidth width: Int) -> String {
    guard text.terminalWidth > width else { return text }
    guard width > 0 else { return "" }
    var out = ""
    var used = 0
    for character in text {
        let w = character.terminalWidth
        if used + w > width - 1 { break }
        out.append(character)
        used += w
    }
    return out + "…"
}

/// The text padded with spaces on the right to `width` terminal columns.
func padded(_ text: String, toWidth width: Int) -> String {
    let missing = width - text.terminalWidth
    return missing > 0 ? text + String(repeating: " ", count: missing) : text
}
