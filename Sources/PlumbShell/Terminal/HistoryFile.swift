import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the REPL keeps its history, and whether it can.
///
/// `$PLUMB_HISTORY` when set, else `$HOME/.plumb_history`, else the passwd entry's home (`$HOME`
/// unset, as under some service managers). readline saves nothing, silently, to a path it cannot
/// write, so the REPL asks `problem(at:)` once at start and says why (the session goes on without
/// saving).
enum HistoryFile {
    /// The history file's path for an environment.
    /// - Parameter environment: the process environment (`ProcessInfo.processInfo.environment`).
    static func path(environment: [String: String]) -> String {
        if let path = environment["PLUMB_HISTORY"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwdHome() ?? "/"
        return (home as NSString).appendingPathComponent(".plumb_history")
    }

    /// Why history cannot be saved at `path` (`is a directory`, `permission denied`, `no such
    /// directory /x`), or nil when it can.
    static func problem(at path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return "is a directory" }
            // A device or a FIFO takes writes it may refuse (/dev/full) or never keep; /dev/null
            // is the usual way to say "no history", so it is taken as meant.
            if info.st_mode & S_IFMT != S_IFREG, path != "/dev/null" { return "is not a regular file" }
            return access(path, W_OK) == 0 ? nil : "permission denied"
        }
        guard errno == ENOENT || errno == ENOTDIR else { return ScriptFile.reason(errno) }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR { return "no such directory \(folder)" }
        return access(folder, W_OK) == 0 ? nil : "permission denied"
    }

    /// The home directory of the passwd entry for the real user.
    private static func passwdHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
