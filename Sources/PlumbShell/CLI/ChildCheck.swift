import Foundation
import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// One file checked by a child `plumb`, so that whatever happens to it (a crash, a run that will
/// not end) costs that file alone: `plumb test DIR` and `plumb learn` keep every other file's
/// result, and `plumb learn` can stop a check on `q` by ending the child.
///
/// The child is this same executable with the same arguments and `PLUMB_CHECK_ONE=FILE` in its
/// environment: `plumb test` then checks only FILE and prints its PASS/FAIL line without the
/// summary; `plumb learn` checks the one exercise and writes its status as `ChildCheck.encode`.
enum ChildCheck {
    static let variable = "PLUMB_CHECK_ONE"

    /// The parent's process id, so the child can tell when it is gone.
    static let parentVariable = "PLUMB_CHECK_PARENT"

    /// The file this process is the child for, if it is one.
    static var file: String? { ProcessInfo.processInfo.environment[variable] }

    /// In a child: ends this process (exit 1) as soon as its parent is gone, so a check that will
    /// not end (an endless source under `--until 1000h`) never outlives the `plumb test` or
    /// `plumb learn` that started it, whether the parent quit, crashed or was killed. Polls
    /// `getppid()` every 100 ms on a thread of its own (Linux reparents an orphan).
    static func endWithParent() {
        guard file != nil else { return }
        // A child runs under the room's memory limit (`plumb learn`): bounded before its first
        // thread starts, as the room's worker is.
        RunLimits.boundThreadStacks()
        let expected = ProcessInfo.processInfo.environment[parentVariable].flatMap { pid_t($0) } ?? getppid()
        let watcher = Thread {
            while getppid() == expected { usleep(100_000) }
            _exit(ExitCode.failure)
        }
        watcher.name = "plumb-check-parent-watch"
        watcher.start()
    }

    /// How a child ended.
    enum Ending: Equatable {
        /// Its exit status.
        case exited(Int32)
        /// Ended by Ctrl-C (SIGINT), or stopped because `shouldStop` said so.
        case interrupted
        /// Killed by another signal: a crash.
        case crashed(Int32)
        /// Ended at one of the limits it was run under (`RunLimits`): too long, too much
        /// output, or out of the memory allowed.
        case stopped(RunLimits.Stop)
    }

    /// Runs the child for `file`; its standard output is returned. Its standard error is read
    /// apart (`ChildStandardError`, its first `errorLimit` bytes kept) and passed on to ours only
    /// when the child exited: what it says on purpose (`plumb test`'s diagnostics for a file that
    /// does not compile) still shows, while a child that crashed or was stopped at a limit
    /// (`Fatal error: failed to allocate…` and the runtime's stack trace past `RLIMIT_DATA`)
    /// leaves the terminal to the parent's one line.
    /// - Parameters:
    ///   - arguments: the child's command-line arguments (without the program).
    ///   - environment: variables set for the child besides ours (`plumb test --report`'s file).
    ///   - limits: the limits the child runs under, the room's own type (`plumb learn`'s checks
    ///     stop where the room's do): its real time, its data memory (`RLIMIT_DATA`, set as soon
    ///     as it has started, before it has read its file) and its output; nil for none.
    ///   - shouldStop: polled every 20 ms while the child runs; true ends it (`plumb learn`'s `q`).
    static func run(
        file: String, arguments: [String], environment extra: [String: String] = [:], limits: RunLimits? = nil,
        shouldStop: () -> Bool = { false }
    ) -> (Ending, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-check-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        guard FileManager.default.createFile(atPath: output.path, contents: nil), let handle = FileHandle(forWritingAtPath: output.path) else {
            return (.crashed(0), "")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        environment[variable] = file
        environment[parentVariable] = String(getpid())
        // A crash report would take seconds and pages: the parent says what happened.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = handle
        let errorPipe = Pipe()
        process.standardError = errorPipe
        do { try process.run() } catch {
            try? handle.close()
            return (.crashed(0), "")
        }
        // `run()` closed our copy of the pipe's write end: the child holds the only one.
        var errors = ChildStandardError(fd: errorPipe.fileHandleForReading.fileDescriptor, keep: .head(Self.errorLimit))
        let pid = process.processIdentifier
        limits?.limitMemory(of: pid)
        let deadline = limits.map { DispatchTime.now().uptimeNanoseconds + UInt64(max(0, $0.seconds) * 1e9) }
        var stopped = false
        var limit: RunLimits.Stop?
        var peakBytes = 0
        while process.isRunning {
            if !stopped, limit == nil {
                if shouldStop() {
                    stopped = true
                } else if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
                    limit = .time
                } else if let limits, Self.fileSize(output.path) > limits.maxBytes {
                    limit = .output
                }
                if stopped || limit != nil { kill(pid, SIGKILL) }
            }
            if limits != nil { peakBytes = max(peakBytes, Self.peakResidentBytes(pid)) }
            errors.drain()
            usleep(20_000)
        }
        process.waitUntilExit()
        errors.drain()
        try? errorPipe.fileHandleForReading.close()
        try? handle.close()
        let text = Self.read(output.path, atMost: limits?.maxBytes ?? Int.max)
        if stopped { return (.interrupted, text) }
        if let limit { return (.stopped(limit), text) }
        switch process.terminationReason {
        case .uncaughtSignal:
            let signal = process.terminationStatus
            if signal != SIGINT, let limits, limits.ranOutOfMemory(saidSo: errors.saysOutOfMemory, peakBytes: peakBytes) {
                return (.stopped(.memory), text)
            }
            return (signal == SIGINT ? .interrupted : .crashed(signal), text)
        case .exit:
            if process.terminationStatus == ExitCode.interrupted { return (.interrupted, text) }
            Self.passOn(errors)
            return (.exited(process.terminationStatus), text)
        @unknown default:
            return (.crashed(0), text)
        }
    }

    /// Enough for every diagnostic of a file `plumb test` checks; a crash's trace is ~10 KiB.
    static let errorLimit = 256 << 10

    /// Writes what was kept of a child's standard error to ours, saying how much was dropped.
    private static func passOn(_ errors: ChildStandardError) {
        guard !errors.kept.isEmpty else { return }
        writeStandardError(errors.text)
        if errors.dropped > 0 { writeStandardError("\n[plumb: \(errors.dropped) more bytes of the check's standard error were dropped]\n") }
    }

    /// A file's size in bytes (0 when it cannot be read).
    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The first `limit` bytes of a file, as text.
    private static func read(_ path: String, atMost limit: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit)) ?? nil
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A running process's peak resident size (`VmHWM` in `/proc/PID/status`), 0 once it is gone.
    private static func peakResidentBytes(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return (Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0) * 1024
    }

    /// What a crash is called in a report: `signal 4 (SIGILL)`.
    static func describe(signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGTRAP: "SIGTRAP", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
        ]
        return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// An exercise's status as the learn child writes it: `passed`, or a kind, a line and a message.
    static func encode(_ status: ExerciseStatus) -> String {
        switch status {
        case .passed: return "passed\n"
        case .failed(let line, let message): return "failed\n\(line)\n\(message)\n"
        case .unreadable(let message): return "unreadable\n0\n\(message)\n"
        }
    }

    /// The status `encode` wrote; nil when the text is not one.
    static func decode(_ text: String) -> ExerciseStatus? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch lines.first {
        case "passed": return .passed
        case "failed" where lines.count == 3: return .failed(line: Int(lines[1]) ?? 1, message: String(lines[2].dropLast(lines[2].hasSuffix("\n") ? 1 : 0)))
        case "unreadable" where lines.count == 3: return .unreadable(String(lines[2].dropLast(lines[2].hasSuffix("\n") ? 1 : 0)))
        default: return nil
        }
    }
}
