#if canImport(Glibc)
import Glibc
#endif

/// The terminal's screen, for `:clear`: wiped as `clear` wipes it in other shells (the cursor
/// home, the screen and its scrollback erased), and left alone when the output is not a terminal
/// (a file or a pipe gets no escape codes).
///
/// ```swift
/// Screen.clear(OutputSink(fd: STDOUT_FILENO))   // on a terminal: the screen is blank, the prompt on top
/// ```
enum Screen {
    /// Cursor home, erase the screen, erase the scrollback (what `clear` writes on xterm-likes).
    static let clearSequence = "\u{1B}[H\u{1B}[2J\u{1B}[3J"

    /// Clears the screen when `out` writes to a terminal; prints nothing otherwise.
    /// - Returns: whether it wrote the clearing sequence.
    @discardableResult
    static func clear(_ out: OutputSink, isTerminal: (Int32) -> Bool = { isatty($0) == 1 }) -> Bool {
        guard isTerminal(out.fd) else { return false }
        out.write(clearSequence)
        out.flush()
        return true
    }
}
