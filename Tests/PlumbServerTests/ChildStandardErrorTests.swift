import Foundation
import Testing

@testable import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// `ChildStandardError`, the one reader of a child's standard error (`plumb learn`'s check keeps
/// its head, the room's run its tail), driven through a real pipe as a child's would be.
@Suite struct ChildStandardErrorTests {
    /// A pipe: its read end (for the reader) and its write end (the child's standard error).
    private static func pipePair() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    private static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            rest = rest.dropFirst(n)
        }
    }

    /// What a reader keeps of "0123456789abcdef", then of "ghij" more once the pipe is closed.
    struct Case: Sendable, CustomTestStringConvertible {
        let keep: ChildStandardError.Keep
        let first: String
        let second: String
        var testDescription: String { "\(keep)" }
    }

    @Test(
        "head: the first bytes kept; tail: the last, across reads; the rest read and counted as dropped; the pipe's end seen",
        arguments: [Case(keep: .head(10), first: "0123456789", second: "0123456789"), Case(keep: .tail(10), first: "6789abcdef", second: "abcdefghij")])
    func bounded(_ c: Case) throws {
        let (readEnd, writeEnd) = try Self.pipePair()
        defer { close(readEnd) }
        var errors = ChildStandardError(fd: readEnd, keep: c.keep)
        Self.write("0123456789abcdef", to: writeEnd)
        errors.drain()
        #expect(errors.text == c.first)
        #expect(errors.dropped == 6)
        #expect(errors.isOpen)
        Self.write("ghij", to: writeEnd)
        close(writeEnd)
        errors.drain()
        #expect(errors.text == c.second)
        #expect(errors.dropped == 10)
        #expect(!errors.isOpen)
    }

    @Test("draining a pipe nothing was written to returns at once, the pipe still open")
    func nothingWritten() throws {
        let (readEnd, writeEnd) = try Self.pipePair()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        var errors = ChildStandardError(fd: readEnd, keep: .tail(2048))
        errors.drain()
        #expect(errors.kept.isEmpty)
        #expect(errors.isOpen)
    }

    @Test("a child that writes more than a pipe holds (1 MiB) never waits on it while the reader drains; the bound holds")
    func moreThanThePipeHolds() throws {
        let (readEnd, writeEnd) = try Self.pipePair()
        defer { close(readEnd) }
        let line = String(repeating: "x", count: 1023) + "\n"
        let last = "Fatal error: failed to allocate 8388720 bytes\n"
        let writer = Thread {
            for _ in 0..<1024 { Self.write(line, to: writeEnd) }
            Self.write(last, to: writeEnd)
            close(writeEnd)
        }
        writer.start()
        var head = ChildStandardError(fd: readEnd, keep: .head(4096))
        while head.isOpen {
            head.drain()
            usleep(1_000)
        }
        #expect(head.kept.count == 4096)
        #expect(head.dropped == 1024 * line.utf8.count + last.utf8.count - 4096)
        // The runtime's last words are past the head: only the tail sees them.
        #expect(!head.saysOutOfMemory)
    }

    @Test("the tail tells the runtime's out-of-memory words after a long trace (RunLimits.saysOutOfMemory)")
    func outOfMemoryInTheTail() throws {
        let (readEnd, writeEnd) = try Self.pipePair()
        defer { close(readEnd) }
        var errors = ChildStandardError(fd: readEnd, keep: .tail(2048))
        Self.write(String(repeating: "frame\n", count: 400), to: writeEnd)
        errors.drain()
        #expect(!errors.saysOutOfMemory)
        Self.write("Fatal error: failed to allocate 8388720 bytes of memory with alignment 8\n", to: writeEnd)
        close(writeEnd)
        errors.drain()
        #expect(errors.saysOutOfMemory)
        #expect(errors.kept.count == 2048)
    }
}
