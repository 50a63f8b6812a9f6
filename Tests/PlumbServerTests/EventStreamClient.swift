import Foundation
import PlumbJSON

@testable import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// A server-sent event stream read over a plain loopback socket, as a browser's `EventSource`
/// reads it: the chunked body decoded as it comes, events split at blank lines, comments and
/// `retry:` skipped. Every read waits at most 20 s (the socket's timeout), so a missing event
/// ends the test instead of hanging it.
final class EventStreamClient {
    struct Event {
        let name: String
        let data: JSON?
    }

    private let fd: Int32
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private(set) var status = 0
    private(set) var head = ""
    private var ended = false

    init(port: UInt16, path: String) throws {
        fd = try RawHTTP.connect(port: port)
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        while !ended, raw.firstRange(of: Array("\r\n\r\n".utf8)) == nil { fill() }
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        head = String(decoding: raw[..<split.lowerBound], as: UTF8.self)
        status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        raw.removeSubrange(..<split.upperBound)
    }

    deinit { close(fd) }

    /// Reads more bytes off the socket; marks the end at EOF, an error or the 20 s timeout.
    private func fill() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 {
            ended = true
            return
        }
        raw.append(contentsOf: buffer[0..<n])
    }

    /// Moves whole chunks from `raw` to `body`; true when the last chunk (size 0) was seen.
    private func dechunk() -> Bool {
        while let lineEnd = raw.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { return true }
            guard raw.count >= lineEnd.upperBound + size + 2 else { return false }
            body.append(contentsOf: raw[lineEnd.upperBound..<(lineEnd.upperBound + size)])
            raw.removeSubrange(..<(lineEnd.upperBound + size + 2))
        }
        return false
    }

    /// The next event, or nil once the stream has ended.
    func next() -> Event? {
        while true {
            let last = dechunk()
            if let end = body.firstRange(of: Array("\n\n".utf8)) {
                let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
                body.removeSubrange(..<end.upperBound)
                var name: String?
                var data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                }
                if let name { return Event(name: name, data: JSON.decode(Array(data.utf8))) }
                continue
            }
            if last || ended { return nil }
            fill()
        }
    }

    /// Events until one that `matches`; nil when the stream ends first.
    func next(where matches: (Event) -> Bool) -> Event? {
        while let event = next() {
            if matches(event) { return event }
        }
        return nil
    }

    /// Reads to the end of the stream; true when it ended (rather than timing out with data).
    func readToEnd() -> Bool {
        while next() != nil {}
        return true
    }
}
