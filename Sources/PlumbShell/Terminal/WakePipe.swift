import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking pipe used to wake the main thread: from a signal handler (the self-pipe trick)
/// or from a pipeline thread that has output or a finished job for it.
///
/// Writing one byte is async-signal-safe; the reader drains everything at once, so many wake-ups
/// collapse into one.
final class WakePipe: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 {
            // Not a trap: out of descriptors is the environment's limit, not a bug (see
            // `StandardStreams.ensureDescriptors`, which raises the limit first).
            writeStandardError(.resourceLimit("cannot create a pipe: \(String(cString: strerror(errno)).lowercased())"))
            exit(ExitCode.failure)
        }
        for i in fds.indices {
            // Never 0-2, were one of them closed (`StandardStreams.reserve` fills them first, this
            // holds even without it): output meant for the terminal would go into the pipe.
            if fds[i] <= STDERR_FILENO, case let moved = fcntl(fds[i], F_DUPFD_CLOEXEC, STDERR_FILENO + 1), moved >= 0 {
                close(fds[i])
                fds[i] = moved
            }
            _ = fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[i], F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the reader. A full pipe already guarantees a wake-up, so a failed write is fine.
    func signal(_ byte: UInt8 = 1) {
        var byte = byte
        _ = write(writeFD, &byte, 1)
    }

    /// Reads every pending byte and returns them.
    @discardableResult
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &chunk, chunk.count)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Sleeps until the pipe has something (a pipeline ended, output is pending, a watcher
    /// cancelled the run), or the timeout, and drains it.
    func wait(timeoutMilliseconds: Int32) {
        var fd = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, timeoutMilliseconds)
        drain()
    }
}
