import Foundation
import Testing
@testable import PlumbShell

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ScriptFileTests {
    @Test(
        "the first byte that is not UTF-8, counted from 1 with its line; nil for good text",
        arguments: [
            ([UInt8]("ok\n".utf8), nil as String?), ([0x61, 0x0A, 0x62, 0xFF], "not UTF-8 at byte 4 (line 2)"),
            ([0xC3], "not UTF-8 at byte 1 (line 1)"), ([UInt8]("é€😀".utf8) + [0xE2, 0x82], "not UTF-8 at byte 10 (line 1)"),
        ])
    func decode(bytes: [UInt8], reason: String?) {
        switch ScriptFile.decode(bytes) {
        case .success: #expect(reason == nil)
        case .failure(let failure): #expect(failure.reason == reason)
        }
    }

    @Test(
        "reasons people can act on", arguments: [(ENOENT, "no such file"), (EISDIR, "is a directory"), (EACCES, "permission denied"), (EBADF, "it is closed")])
    func reasons(code: Int32, reason: String) {
        #expect(ScriptFile.reason(code) == reason)
    }

    @Test("a line reader returns each line (CRLF too, the last without a newline), flags a bad one, and ends")
    func lineReader() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes: [UInt8] = Array("one\r\ntwo\n".utf8) + [0xFF, 0x0A] + Array((String(repeating: "x", count: 200_000) + "\nlast").utf8)
        let writeEnd = fds[1]
        let writer = Thread {
            OutputSink.writeAll(fd: writeEnd, bytes)
            close(writeEnd)
        }
        writer.start()
        var reader = LineReader(fd: fds[0])
        #expect(reader.next() == .text("one"))
        #expect(reader.next() == .text("two"))
        #expect(reader.next() == .invalid("not UTF-8 at byte 1 of the line"))
        #expect(reader.next() == .text(String(repeating: "x", count: 200_000)))
        #expect(reader.next() == .text("last"))
        #expect(reader.next() == nil)
        close(fds[0])
    }

    @Test("a line reader on a closed descriptor fails once with its errno, then ends")
    func lineReaderFailure() {
        var reader = LineReader(fd: 999)
        #expect(reader.next() == .failed(EBADF))
        #expect(reader.next() == nil)
    }
}
