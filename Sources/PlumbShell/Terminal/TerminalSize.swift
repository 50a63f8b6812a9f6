import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's size, for drawing.
enum TerminalSize {
    /// Standard output's window width: the window's (`TIOCGWINSZ`), `$COLUMNS`, or 80.
    static var columns: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}
