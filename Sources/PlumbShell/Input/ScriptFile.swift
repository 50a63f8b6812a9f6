#if canImport(Glibc)
import Glibc
#endif

/// Why a script could not be read, as `plumb: error: cannot read PATH: REASON` shows it.
struct ReadFailure: Error, Equatable {
    /// The path as the person wrote it (`standard input` for `-`).
    var path: String
    /// `no such file`, `is a directory`, `permission denied`, `not UTF-8 at byte N (line L)`, …
    var reason: String

    var message: String { "cannot read \(path): \(reason)" }
}

/// A failed system call's `errno`.
struct SystemError: Error, Equatable {
    var code: Int32
}

/// The one way the shell reads a file or a stream: `plumb run`, `check`, `test`, `:load` and
/// standard input all come here.
///
/// Regular files, pipes, FIFOs, `/dev/stdin` and process substitutions (`<(…)`) are all read the
/// same way, with `read(2)` to the end, so nothing depends on a file having a size. Every failure
/// is a `ReadFailure` with the reason a person can act on; nothing traps.
///
/// ```swift
/// switch ScriptFile.read("-") {
/// case .success(let text): run(text)
/// case .failure(let failure): writeStandardError(.unreadableFile(failure.message))
/// }
/// ```
enum ScriptFile {
    /// Reads a whole script. `-` is standard input.
    /// - Parameter path: a path, or `-`.
    /// - Returns: the text, or why it could not be read.
    static func read(_ path: String) -> Result<String, ReadFailure> {
        let name = path == "-" ? "standard input" : path
        return readBytes(path)
            .mapError { ReadFailure(path: name, reason: reason($0.code)) }
            .flatMap { bytes in decode(bytes).mapError { ReadFailure(path: name, reason: $0.reason) } }
    }

    /// Every byte of a file or stream, or the `errno` that stopped the read.
    static func readBytes(_ path: String) -> Result<[UInt8], SystemError> {
        if path == "-" { return readToEnd(STDIN_FILENO) }
        // Non-blocking, so that a FIFO nobody writes to does not hold `open` (where Ctrl-C cannot
        // reach it): the wait happens below, where it can be interrupted.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO, !waitForWriter(fd) {
            return .failure(SystemError(code: EINTR))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return readToEnd(fd)
    }

    /// Waits until a FIFO has something to read (or its writer has come and gone); false when
    /// Ctrl-C (a SIGINT caught by the shell's handler) came first.
    static func waitForWriter(_ fd: Int32) -> Bool {
        let interrupts = Signals.interrupts.load(ordering: .relaxed)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 100) > 0 { return true }
            if Signals.interrupts.load(ordering: .relaxed) != interrupts { return false }
        }
    }

    /// Reads `fd` until end of file, retrying interrupted reads. A directory fails with `EISDIR`.
    static func readToEnd(_ fd: Int32) -> Result<[UInt8], SystemError> {
        var info = stat()
        if fstat(fd, &info) != 0 { return .failure(SystemError(code: errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(SystemError(code: EISDIR)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN {
                    waitUntilReadable(fd)
                    continue
                }
                return .failure(SystemError(code: code))
            }
            if n == 0 { return .success(bytes) }
            // `/dev/zero` or `/dev/urandom` must not fill the memory.
            if bytes.count + n > maximumSize { return .failure(SystemError(code: EFBIG)) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// The largest script (and the longest line of standard input) read: 64 MB.
    static let maximumSize = 64 << 20

    /// The text of `bytes`, or `not UTF-8 at byte N (line L)` for the first byte (counted from 1)
    /// that does not start or continue a well-formed UTF-8 sequence.
    static func decode(_ bytes: [UInt8]) -> Result<String, ReadFailure> {
        if let offset = firstInvalidUTF8(in: bytes) {
            let line = 1 + bytes[..<offset].reduce(0) { $1 == 10 ? $0 + 1 : $0 }
            return .failure(ReadFailure(path: "", reason: "not UTF-8 at byte \(offset + 1) (line \(line))"))
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence, or nil.
    static func firstInvalidUTF8<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Waits for a descriptor someone left non-blocking (a parent's `O_NONBLOCK` on a shared pipe).
    static func waitUntilReadable(_ fd: Int32) {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, -1)
    }

    /// A reason for an `errno`, in the words `plumb` uses.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EISDIR: "is a directory"
        case EINTR: "interrupted while waiting for something to be written to it"
        case EACCES, EPERM: "permission denied"
        case EBADF: "it is closed"
        case ENOTDIR: "a part of the path is not a directory"
        case EFBIG: "larger than \(maximumSize >> 20) MB"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// Reads a stream one line at a time, for statements piped into `plumb`: a line is returned as
/// soon as its newline arrives, so a statement runs before the next one is typed or produced.
///
/// Lines of any length are fine (a 10 MB line is one line). A line that is not UTF-8 is returned
/// as `.invalid` with the reason, so the caller can report it and go on; a read error ends the
/// stream with `.failed`.
struct LineReader {
    enum Line: Equatable {
        case text(String)
        /// A line that cannot be a statement, and why: `not UTF-8 at byte N of the line` (N
        /// counted from 1), `the line is longer than 64 MB` (the rest of it is skipped).
        case invalid(String)
        /// The read failed with this `errno`; nothing more comes.
        case failed(Int32)
    }

    let fd: Int32
    /// A descriptor that ends the stream when it becomes readable (nil: none).
    let stopFD: Int32?
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer` (bytes before it were returned already).
    private var start = 0
    /// Where the search for the next newline resumes (bytes from `start` to it hold none).
    private var scanned = 0
    private var ended = false
    /// Inside a line longer than `ScriptFile.maximumSize`, already reported: drop up to its end.
    private var skipping = false

    /// - Parameters:
    ///   - fd: the stream.
    ///   - stopFD: when readable, `next()` returns nil instead of waiting for more input
    ///     (`StandardStreams.failureWake`: nothing can be shown any more).
    init(fd: Int32, stopFD: Int32? = nil) {
        self.fd = fd
        self.stopFD = stopFD
    }

    /// The next line without its newline (a final line without one counts), or nil at the end.
    mutating func next() -> Line? {
        while true {
            if skipping {
                if let newline = buffer[scanned...].firstIndex(of: 10) {
                    skipping = false
                    start = newline + 1
                    scanned = start
                } else {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                    scanned = 0
                }
            }
            if !skipping, let newline = buffer[scanned...].firstIndex(of: 10) {
                let line = Self.line(buffer[start..<newline])
                start = newline + 1
                scanned = start
                return line
            }
            scanned = buffer.count
            if !skipping && buffer.count - start > ScriptFile.maximumSize {
                skipping = true
                buffer.removeAll()
                start = 0
                scanned = 0
                return .invalid("the line is longer than \(ScriptFile.maximumSize >> 20) MB")
            }
            if ended {
                guard !skipping, start < buffer.count else { return nil }
                let line = Self.line(buffer[start...])
                start = buffer.count
                scanned = start
                return line
            }
            // Drop what was returned before reading more, so the buffer holds one partial line.
            if start > 0 {
                buffer.removeSubrange(..<start)
                scanned -= start
                start = 0
            }
            if let stopFD {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
                if poll(&fds, 2, -1) < 0 && errno == EINTR { continue }
                if fds[1].revents != 0 { return nil }
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN {
                    ScriptFile.waitUntilReadable(fd)
                    continue
                }
                ended = true
                buffer = []
                start = 0
                scanned = 0
                return .failed(code)
            }
            if n == 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }

    private static func line(_ bytes: ArraySlice<UInt8>) -> Line {
        var bytes = bytes
        if bytes.last == 13 { bytes.removeLast() }
        if let offset = ScriptFile.firstInvalidUTF8(in: bytes) { return .invalid("not UTF-8 at byte \(offset + 1) of the line") }
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}
