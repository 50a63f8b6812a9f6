import Foundation

/// The base protocol's framing: `Content-Length: N\r\n` (other headers allowed), a blank line,
/// then N bytes of JSON. `FrameDecoder` takes bytes as they arrive and hands out whole bodies.
///
/// ```swift
/// var decoder = FrameDecoder()
/// decoder.append(Data("Content-Length: 2\r\n\r\n{}".utf8))
/// try decoder.next()    // .body(Data("{}".utf8))
/// ```
public struct FrameDecoder: Sendable {
    /// What the stream held next.
    public enum Frame: Sendable, Equatable {
        /// A message body (its JSON is not yet read).
        case body(Data)
        /// A header block that cannot be read (no or a bad `Content-Length`): the block is dropped
        /// and reading goes on after it, so one bad frame does not end the session.
        case badHeader(String)
    }

    /// A header block larger than this is not a header: it is dropped.
    static let maxHeaderBytes = 8 * 1024
    /// The largest body accepted (a body claiming more is refused, not waited for).
    public static let maxBodyBytes = 64 * 1024 * 1024

    private var buffer: [UInt8] = []
    private var start = 0
    /// Body bytes of a message whose header could not be read, still to be dropped.
    private var skipping = 0

    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append(_ data: Data) {
        if start > 65_536, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: data)
    }

    /// The next whole frame, or nil when more bytes are needed.
    ///
    /// A header block that cannot be read costs that message only: when it still names a length,
    /// its body is skipped; when it does not, reading resumes at the next `Content-Length` in the
    /// stream (the start of the next header block), so every later message is read.
    public mutating func next() -> Frame? {
        dropSkipped()
        if skipping > 0 { return nil }
        guard let headerEnd = headerEnd() else {
            if buffer.count - start > Self.maxHeaderBytes {
                resynchronise(after: start, atLeast: buffer.count - Self.marker.count)
                return .badHeader("header longer than \(Self.maxHeaderBytes) bytes")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        let bodyStart = headerEnd + 4
        var length: Int?
        var problem: String?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                problem = problem ?? "header line without ':': '\(line)'"
                continue
            }
            if parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                let value = Int(parts[1].trimmingCharacters(in: .whitespaces))
                if length != nil || value == nil { problem = problem ?? "a second or unreadable Content-Length: '\(line)'" }
                length = length ?? value
            }
        }
        guard let length, length >= 0, length <= Self.maxBodyBytes else {
            resynchronise(after: start, atLeast: bodyStart)
            return .badHeader(problem ?? "no valid Content-Length in '\(header)'")
        }
        if let problem {
            start = bodyStart
            skipping = length
            dropSkipped()
            return .badHeader(problem + "; its \(length)-byte body is skipped")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        return .body(body)
    }

    /// Drops what has arrived of a skipped body.
    private mutating func dropSkipped() {
        let dropped = min(skipping, buffer.count - start)
        start += dropped
        skipping -= dropped
    }

    /// `content-length`, the header every block has: where reading resumes after a block
    /// without a length.
    private static let marker = Array("content-length".utf8)

    /// Moves `start` to the next `Content-Length` (any case) after `position`, or when there is
    /// none yet, to `atLeast` (bytes before it cannot start a header block).
    private mutating func resynchronise(after position: Int, atLeast: Int) {
        var i = position + 1
        while i + Self.marker.count <= buffer.count {
            if zip(buffer[i..<(i + Self.marker.count)], Self.marker).allSatisfy({ (0x41...0x5a).contains($0) ? $0 + 0x20 == $1 : $0 == $1 }) {
                start = i
                return
            }
            i += 1
        }
        start = max(position + 1, min(atLeast, buffer.count))
    }

    /// The index of the `\r\n\r\n` ending the header that starts at `start`.
    private func headerEnd() -> Int? {
        var i = start
        let limit = min(buffer.count - 3, start + Self.maxHeaderBytes + 1)
        while i < limit {
            if buffer[i] == 13, buffer[i + 1] == 10, buffer[i + 2] == 13, buffer[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// `body` framed for the stream.
    public static func frame(_ body: Data) -> Data {
        var data = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        data.append(body)
        return data
    }
}
