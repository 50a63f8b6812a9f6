import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread-safe byte buffer in front of a file descriptor.
///
/// Pipeline events arrive on any thread; each is formatted straight into this buffer, which is
/// written out when it grows past `threshold`, when 50 ms have passed since the last write (checked
/// every few appends, for long synchronous bursts), and whenever the owner calls `flush()` (while a
/// foreground pipeline runs the engine does so every 50 ms from its interrupt watcher's thread,
/// which is free even when the main thread is busy inside a synchronous source, and when it ends).
/// Writing one large block instead of one line per event is what keeps printing out of the way.
///
/// A deferred sink (background jobs' output, a live diagram's event lines) is written by its owner
/// when the terminal takes it, while its producers never wait: so it holds at most
/// `deferredLimit` bytes. Past that, whole lines are dropped and counted, and `take()` ends with
/// a line that says how many (a terminal stopped with Ctrl-S, or a slow link, cannot make plumb's
/// memory grow without bound). A run's last line (how it ended) is never dropped: it goes in past
/// the limit, after the note for the lines dropped before it (`append(kept:_:)`). A sink that
/// writes itself applies back-pressure instead: a producer waits while the descriptor does not
/// take its bytes.
final class OutputSink: Sendable {
    private struct State {
        var buffer: ByteBuffer
        /// Where the general `append` formats a line before it is copied into `buffer`.
        var scratch: [UInt8] = []
        var appendsSinceClockCheck = 0
        var lastFlush: UInt64 = DispatchTime.now().uptimeNanoseconds
        var broken = false
        /// Lines a full deferred sink dropped since the last `take()`.
        var droppedLines = 0
    }

    let fd: Int32
    private let threshold: Int
    private let state: Mutex<State>
    /// When set, appends do not write to `fd` themselves: the owner drains the buffer with `take()`
    /// (the REPL prints background output above the prompt, on the readline thread).
    private let deferred: Bool
    /// Called (outside the lock) after an append made a deferred buffer non-empty.
    private let onPending: (@Sendable () -> Void)?

    static let flushInterval: UInt64 = 50_000_000

    /// The most a deferred sink holds before it drops lines: seconds of a terminal's reading.
    static let deferredLimit = 4 << 20

    /// Bytes a deferred sink holds before it drops (`deferredLimit`; smaller in tests).
    private let limit: Int

    init(fd: Int32, threshold: Int = 1 << 16, deferred: Bool = false, limit: Int = OutputSink.deferredLimit, onPending: (@Sendable () -> Void)? = nil) {
        self.fd = fd
        self.threshold = threshold
        self.deferred = deferred
        self.limit = limit
        self.onPending = onPending
        state = Mutex(State(buffer: ByteBuffer(capacity: threshold + 1024)))
    }

    deinit {
        state.withLock { $0.buffer.deallocate() }
    }

    /// Appends bytes produced by `body`; may write the buffer out.
    /// - Parameter kept: The bytes must be seen even when a deferred sink is at its limit (a run's
    ///   last line: Ctrl-C while the terminal was stopped with Ctrl-S must still say `cancelled`).
    ///   They go in past the limit, after the note for the lines dropped before them, so the note
    ///   stands where the lines went missing. A run has one last line, so the sink stays bounded.
    func append(kept: Bool = false, _ body: (inout [UInt8]) -> Void) {
        let wasEmpty = state.withLock { state -> Bool in
            let wasEmpty = state.buffer.isEmpty
            body(&state.scratch)
            if !isFull(state.buffer.count) {
                state.buffer.append(state.scratch)
            } else if kept {
                Self.noteDropped(&state)
                state.buffer.append(state.scratch)
            } else {
                state.droppedLines += Swift.max(1, state.scratch.reduce(0) { $1 == 10 ? $0 + 1 : $0 })
            }
            state.scratch.removeAll(keepingCapacity: true)
            return appended(&state, wasEmpty: wasEmpty)
        }
        if wasEmpty { onPending?() }
    }

    /// Appends a line that `write` writes in place, at most `maxBytes` of it, and returns the
    /// count of: the hot path (a `value <int>` line per event), with no copy and no array traffic.
    func appendLine(maxBytes: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let wasEmpty = state.withLock { state -> Bool in
            let wasEmpty = state.buffer.isEmpty
            if isFull(state.buffer.count) {
                state.droppedLines += 1
            } else {
                state.buffer.append(maxBytes: maxBytes, write)
            }
            return appended(&state, wasEmpty: wasEmpty)
        }
        if wasEmpty { onPending?() }
    }

    /// A deferred sink at its limit: the next line is dropped and counted.
    @inline(__always)
    private func isFull(_ count: Int) -> Bool {
        deferred && count >= limit
    }

    /// After an append, under the lock: writes the buffer out when it is due. Returns whether a
    /// deferred buffer became non-empty.
    @inline(__always)
    private func appended(_ state: inout State, wasEmpty: Bool) -> Bool {
        if deferred { return wasEmpty && !state.buffer.isEmpty }
        state.appendsSinceClockCheck &+= 1
        var due = state.buffer.count >= threshold
        if !due && state.appendsSinceClockCheck >= 64 {
            state.appendsSinceClockCheck = 0
            due = DispatchTime.now().uptimeNanoseconds - state.lastFlush >= Self.flushInterval
        }
        if due { Self.writeOut(&state, fd: fd) }
        return false
    }

    /// Appends a string.
    func write(_ text: String) {
        append { $0.append(contentsOf: text.utf8) }
    }

    /// Writes out whatever is buffered.
    func flush() {
        state.withLock { Self.writeOut(&$0, fd: fd) }
    }

    /// Removes and returns the buffered bytes (for deferred sinks), followed by a line that says
    /// how many lines were dropped since the last take, if any were.
    func take() -> [UInt8] {
        state.withLock { state in
            Self.noteDropped(&state)
            let bytes = state.buffer.array
            state.buffer.removeAll()
            return bytes
        }
    }

    /// Under the lock: the note for the lines dropped since the last one, if any, goes in (past
    /// the limit: it is one line) and the count starts afresh.
    private static func noteDropped(_ state: inout State) {
        guard state.droppedLines > 0 else { return }
        state.buffer.append(Array(droppedNote(state.droppedLines).utf8))
        state.droppedLines = 0
    }

    /// What a deferred sink says in place of the lines it dropped.
    static func droppedNote(_ lines: Int) -> String {
        "… \(lines) \(lines == 1 ? "line" : "lines") not shown: they came faster than the terminal read them (stopped with Ctrl-S, or a slow link)\n"
    }

    /// Moves what `other` holds (a deferred sink) into this one and flushes, so background
    /// output keeps its order with this sink's.
    func move(from other: OutputSink) {
        guard other !== self else { return }
        let bytes = other.take()
        guard !bytes.isEmpty else { return }
        append { $0.append(contentsOf: bytes) }
        flush()
    }

    private static func writeOut(_ state: inout State, fd: Int32) {
        state.lastFlush = DispatchTime.now().uptimeNanoseconds
        state.appendsSinceClockCheck = 0
        guard !state.buffer.isEmpty else { return }
        if !state.broken, !writeAll(fd: fd, state.buffer.bytes) { state.broken = true }
        state.buffer.removeAll()
    }

    /// Writes every byte (see `writeAll(fd:_:)` for raw bytes).
    @discardableResult
    static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd: fd, $0) }
    }

    /// Writes every byte, retrying partial writes and EINTR. Returns false when the write failed
    /// (the reader is gone, the device is full, the descriptor is closed); a failure on standard
    /// output is recorded in `StandardStreams`, which ends plumb.
    @discardableResult
    static func writeAll(fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
        if fd == STDOUT_FILENO && StandardStreams.outputFailed { return false }
        let failure = { () -> Int32 in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN {
                        // A non-blocking descriptor someone else shares: wait until it takes more.
                        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, 100)
                        continue
                    }
                    return code
                }
                if n == 0 { return EIO }
                offset += n
            }
            return 0
        }()
        if failure != 0 && fd == STDOUT_FILENO { StandardStreams.recordWriteFailure(failure) }
        return failure == 0
    }
}

/// The sink's bytes, in memory of their own so that a line is written in place
/// (`OutputSink.appendLine`); touched only under the sink's lock, freed by the sink.
private struct ByteBuffer: @unchecked Sendable {
    // @unchecked: the memory it points to is only read and written under the sink's lock.
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 256)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func removeAll() { count = 0 }

    func deallocate() { base.deallocate() }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        _ = UnsafeMutableBufferPointer(start: base + count, count: bytes.count).update(fromContentsOf: bytes)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(maxBytes: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxBytes)
        count += write(base + count)
    }
}

/// Writes text to standard error at once (diagnostics are rare and must not wait for a flush).
func writeStandardError(_ text: String) {
    OutputSink.writeAll(fd: 2, Array(text.utf8))
}
