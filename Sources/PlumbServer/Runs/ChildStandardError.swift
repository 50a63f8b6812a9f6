import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a child process writes to its standard error, read from its pipe without blocking (so a
/// child that writes a lot never waits on a full pipe, and a reader never waits on a child that
/// says nothing) and kept within a bound: its first bytes or its last, as the reader asks.
///
/// One type for both readers of a child's standard error: `plumb learn`'s check (`ChildCheck`
/// keeps the head, 256 KiB, and passes it on when the child exited normally) and the room's run
/// (`WorkerProcess` keeps the last 2 KiB). Both ask it whether the child said it ran out of
/// memory (`RunLimits.saysOutOfMemory`).
public struct ChildStandardError {
    /// Which bytes are kept.
    public enum Keep: Sendable, Equatable {
        /// The first bytes, at most this many: what the child said on purpose, to pass on.
        case head(Int)
        /// The last bytes, at most this many: its last words (the runtime's "failed to allocate").
        case tail(Int)
    }

    /// The read end of the child's standard error; the caller closes it.
    public let fd: Int32
    public let keep: Keep
    /// False once the child's end is closed (every writer is gone).
    public private(set) var isOpen = true
    /// The bytes kept.
    public private(set) var kept: [UInt8] = []
    /// How many bytes were read and not kept.
    public private(set) var dropped = 0

    /// Reads `fd` from now on without blocking (sets `O_NONBLOCK` on it).
    public init(fd: Int32, keep: Keep) {
        self.fd = fd
        self.keep = keep
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Reads all the child has written so far, and returns: at once when nothing is waiting.
    public mutating func drain() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while isOpen {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return }
            if n == 0 {
                isOpen = false
                return
            }
            store(buffer[0..<n])
        }
    }

    private mutating func store(_ bytes: ArraySlice<UInt8>) {
        switch keep {
        case .head(let limit):
            let room = max(0, limit - kept.count)
            kept.append(contentsOf: bytes.prefix(room))
            dropped += bytes.count - min(bytes.count, room)
        case .tail(let limit):
            kept.append(contentsOf: bytes)
            if kept.count > limit {
                dropped += kept.count - limit
                kept.removeFirst(kept.count - limit)
            }
        }
    }

    /// What was kept, as text.
    public var text: String { String(decoding: kept, as: UTF8.self) }

    /// Whether the child said an allocation failed (Swift's runtime: "failed to allocate N bytes").
    public var saysOutOfMemory: Bool { RunLimits.saysOutOfMemory(text) }
}
