/// How many rows lines take on a terminal: what a live diagram must move up over to redraw itself
/// after the window was resized.
///
/// A terminal that rewraps its lines when it gets narrower (tmux, VTE, iTerm2, kitty) shows a
/// line `w` columns wide in `⌈w / columns⌉` rows; ANSI colour codes take no room.
///
/// ```swift
/// TerminalRows.count(["[0] interval 100ms      ^-0-1-2-(3!)"], columns: 20)   // 2
/// ```
public enum TerminalRows {
    /// The rows `lines` take at `columns` columns (each line at least one row).
    public static func count(_ lines: [String], columns: Int) -> Int {
        let columns = max(columns, 1)
        return lines.reduce(0) { $0 + max(1, (width(of: $1) + columns - 1) / columns) }
    }

    /// The columns a line takes: its characters' terminal widths, escape sequences left out.
    public static func width(of line: String) -> Int {
        var width = 0
        var inEscape = false
        var sawBracket = false
        for character in line {
            if inEscape {
                // CSI: ESC [ parameters… final byte (@ to ~).
                if !sawBracket {
                    sawBracket = character == "["
                    if !sawBracket { inEscape = false }
                } else if let ascii = character.asciiValue, ascii >= 0x40, ascii <= 0x7E {
                    inEscape = false
                }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                sawBracket = false
                continue
            }
            width += character.terminalWidth
        }
        return width
    }
}
