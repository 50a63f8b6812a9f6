#if canImport(Glibc)
import Glibc
#endif

/// Turns off the terminal's `^C` echo while a statement runs, so that Ctrl-C does not leave
/// `^C` glued to the front of the next event line (the shell prints its own `cancelled` line).
enum TerminalEcho {
    /// Runs `body` with ECHOCTL off on standard input, restoring the previous settings after.
    static func withoutControlEcho<R>(_ body: () -> R) -> R {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHOCTL)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer { _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        return body()
    }
}
