import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Standard input, one key at a time without echo, for `plumb learn`'s keys; Ctrl-C arrives as a
/// key (byte 3) so quitting restores the terminal. Not a terminal: keys are read as they come.
final class RawTerminal {
    private var saved = termios()
    private let active: Bool

    init() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            active = false
            return
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
    }

    /// A key, or nil when none came within the timeout (or standard input is closed).
    func readKey(timeoutMilliseconds: Int32) -> UInt8? {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeoutMilliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        let n = read(STDIN_FILENO, &byte, 1)
        if n == 0 {
            // End of input: wait out the timeout so the caller's file polling still runs.
            usleep(UInt32(timeoutMilliseconds) * 1000)
            return nil
        }
        return n == 1 ? byte : nil
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}
