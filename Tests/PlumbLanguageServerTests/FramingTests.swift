import Foundation
import Testing

@testable import PlumbLanguageServer

@Suite struct FramingTests {
    private func frames(_ chunks: [String]) -> [FrameDecoder.Frame] {
        var decoder = FrameDecoder()
        var out: [FrameDecoder.Frame] = []
        for chunk in chunks {
            decoder.append(Data(chunk.utf8))
            while let frame = decoder.next() { out.append(frame) }
        }
        return out
    }

    @Test("a message split byte by byte arrives whole, once")
    func splitMessage() {
        let text = "Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}"
        #expect(frames(text.map(String.init)) == [.body(Data(#"{"jsonrpc":"2.0"}"#.utf8))])
    }

    @Test("two messages in one read are two frames; other headers are allowed")
    func twoMessages() {
        let text = "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}content-length: 4\r\n\r\n[1] "
        #expect(frames([text]) == [.body(Data("{}".utf8)), .body(Data("[1] ".utf8))])
    }

    @Test("the length counts bytes, not characters: a body with é and 😀")
    func lengthInBytes() {
        let body = #"{"t":"é😀"}"#
        let framed = String(decoding: FrameDecoder.frame(Data(body.utf8)), as: UTF8.self)
        #expect(framed.hasPrefix("Content-Length: \(body.utf8.count)\r\n\r\n"))
        #expect(frames([framed]) == [.body(Data(body.utf8))])
    }

    @Test("a header without Content-Length is reported and the next message is still read")
    func badHeaderThenGood() {
        let out = frames(["Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}"])
        #expect(out.count == 2)
        if case .badHeader = out.first {} else { Issue.record("expected a bad header, got \(out)") }
        #expect(out.last == .body(Data("{}".utf8)))
    }

    @Test("a header line with no colon, or a negative length, is a bad header, not a hang")
    func garbage() {
        #expect(frames(["hello\r\n\r\n"]).count == 1)
        #expect(frames(["Content-Length: -4\r\n\r\n"]).count == 1)
        #expect(frames(["Content-Length: 99999999999\r\n\r\n"]).count == 1)
    }

    @Test("an endless header line is dropped once it passes the limit")
    func endlessHeader() {
        let out = frames([String(repeating: "x", count: FrameDecoder.maxHeaderBytes + 10)])
        #expect(out.count == 1)
    }

    @Test("a body that has not fully arrived waits")
    func partialBody() {
        #expect(frames(["Content-Length: 10\r\n\r\n{\"a\":"]).isEmpty)
    }
}
