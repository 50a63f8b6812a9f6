import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Standard input, output and error as the process got them, and what happened to writes on
/// standard output.
///
/// A closed descriptor 0, 1 or 2 (`plumb <&-`, `>&-`) would be taken by the next `open` or `pipe`
/// (readline's, dispatch's or the shell's own), and output meant for the terminal would go into
/// an internal pipe. `reserve()` fills each closed one with `/dev/null` opened the wrong way round
/// (write-only for 0, read-only for 1 and 2), so reads and writes on it still fail with `EBADF`, as
/// on the closed descriptor, and no later descriptor can be 0-2.
///
/// A write to standard output that fails (a reader that went away: `EPIPE`; a full device:
/// `ENOSPC`; a closed one: `EBADF`) is recorded once, process-wide. The engine then cancels what
/// runs and `plumb` ends: 141 for `EPIPE` (SIGPIPE's convention, silently), else 1 with one line
/// on standard error.
enum StandardStreams {
    /// The `errno` of the first failed write to standard output, 0 while none failed.
    private static let failure = Atomic<Int32>(0)

    /// Readable once a write to standard output failed: a thread waiting for input (statements
    /// from a pipe, while a background job writes) polls it too, so plumb ends at once.
    static let failureWake = WakePipe()

    /// Makes sure descriptors 0-2 are open (see the type's summary). Call first thing in `main`.
    static func reserve() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            let placeholder = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != fd {
                dup2(placeholder, fd)
                close(placeholder)
            }
        }
        _ = failureWake.readFD
    }

    /// The open descriptors plumb needs: its pipes, dispatch's, readline's, a script and slack.
    static let descriptorsNeeded: rlim_t = 64

    /// Raises the soft limit on open descriptors to `descriptorsNeeded` when it is lower
    /// (`ulimit -n 10`), up to the hard limit; returns a usage message when even that is too few.
    /// With too few, dispatch cannot start its threads and a run would wait for ever.
    static func ensureDescriptors() -> String? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < descriptorsNeeded else { return nil }
        if limit.rlim_max >= descriptorsNeeded {
            limit.rlim_cur = descriptorsNeeded
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { return nil }
        }
        return "plumb needs at least \(descriptorsNeeded) open files, and the limit is \(limit.rlim_max) (ulimit -n)"
    }

    /// Records a failed write to standard output (the first one counts).
    static func recordWriteFailure(_ code: Int32) {
        if failure.compareExchange(expected: 0, desired: code == 0 ? EIO : code, ordering: .relaxed).exchanged {
            failureWake.signal()
        }
    }

    /// True once a write to standard output failed: nothing more can be shown, so plumb ends.
    static var outputFailed: Bool { failure.load(ordering: .relaxed) != 0 }

    /// The exit code for a failed standard output, after printing its one line on standard error
    /// (none for a reader that went away, as a program killed by SIGPIPE prints none).
    static func outputFailureExitCode() -> Int32 {
        let code = failure.load(ordering: .relaxed)
        if code == EPIPE { return ExitCode.brokenPipe }
        writeStandardError(.cannotWriteOutput(String(cString: strerror(code)).lowercased()))
        return ExitCode.failure
    }

    /// Writes `text` to standard output at once; false (and the failure recorded) when it failed.
    @discardableResult
    static func write(_ text: String) -> Bool {
        OutputSink.writeAll(fd: STDOUT_FILENO, Array(text.utf8))
    }

    /// The exit code once a run is over: `code`, unless standard output failed on the way.
    static func exitCode(after code: Int32) -> Int32 {
        outputFailed ? outputFailureExitCode() : code
    }
}
