import Foundation
import Synchronization
import PlumbJSON
import Testing

@testable import PlumbLanguageServer

/// The language server over its real stream (bytes in, bytes out, as `plumb lsp` serves them):
/// a bad frame costs that message, never the session (issue 41).
@Suite struct StdioFramingTests {
    /// Serves `input` (then its end) with `StdioServer.run`; every message written back, and the
    /// exit code.
    static func serve(_ input: [UInt8]) throws -> (replies: [JSON], code: Int32) {
        let inPipe = Pipe()
        let outPipe = Pipe()
        let code = LockedBox()
        let done = DispatchSemaphore(value: 0)
        let server = Thread {
            code.set(StdioServer.run(commands: [], input: inPipe.fileHandleForReading, output: outPipe.fileHandleForWriting))
            try? outPipe.fileHandleForWriting.close()
            done.signal()
        }
        server.start()
        try inPipe.fileHandleForWriting.write(contentsOf: input)
        try inPipe.fileHandleForWriting.close()
        let output = try outPipe.fileHandleForReading.readToEnd() ?? Data()
        #expect(done.wait(timeout: .now() + 30) == .success)
        var decoder = FrameDecoder()
        decoder.append(output)
        var replies: [JSON] = []
        while let frame = decoder.next() {
            guard case .body(let body) = frame else {
                Issue.record("the server wrote a bad frame: \(frame)")
                continue
            }
            replies.append(try #require(JSON.decode(body)))
        }
        return (replies, code.value)
    }

    static func framed(_ message: String) -> [UInt8] { Array(FrameDecoder.frame(Data(message.utf8))) }

    static func session(_ middle: String) -> [UInt8] {
        framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#) + Array(middle.utf8)
            + framed(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) + framed(#"{"jsonrpc":"2.0","method":"exit"}"#)
    }

    @Test(
        "a header block with a malformed line, a bad length or garbage costs that message: shutdown and exit after it are still read (exit 0)",
        arguments: [
            "Content-Length: 2\r\nX-Bad\r\n\r\n{}",
            "Content-Length: 2\r\nX-Bad\r\n\r\n{}\r\n",
            "X-Bad\r\nContent-Length: 2\r\n\r\n{}",
            "Content-Length: two\r\n\r\n{}",
            "Content-Length: -1\r\n\r\n{}",
            "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            "garbage without any header end",
            "Content-Type: x\r\n\r\n",
            "\u{1b}[31m\r\n\r\n",
        ])
    func badFrameCostsOneMessage(bad: String) throws {
        let (replies, code) = try Self.serve(Self.session(bad))
        #expect(replies.contains { $0["id"] == .int(1) && $0["result"] != nil }, "\(replies)")
        #expect(replies.contains { $0["id"] == .int(2) && $0["result"] != nil }, "\(replies)")
        #expect(code == 0)
    }

    @Test("a request whose id is 1.5 is told that an id is an integer or a string")
    func fractionalID() throws {
        let (replies, _) = try Self.serve(Self.session(String(decoding: Self.framed(#"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#), as: UTF8.self)))
        let message = replies.compactMap { $0["error"]?["message"]?.string }.first ?? ""
        #expect(message.contains("integer or a string") && message.contains("1.5"), "\(message)")
    }
}

/// The exit code, set on the server's thread and read after it is done.
private final class LockedBox: Sendable {
    private let code = Mutex<Int32>(-1)
    var value: Int32 { code.withLock { $0 } }
    func set(_ v: Int32) { code.withLock { $0 = v } }
}
