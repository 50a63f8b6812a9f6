import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// A room served on a free loopback port for one test, with its own state folder; its runs go to
/// `worker` (a stand-in child such as `/bin/sh -c …`, or the built `plumb`).
final class TestRoom {
    let room: Room
    let server: HTTPServer
    let state: URL
    var port: UInt16 { server.boundPort }

    static let exercises = [
        RoomExercise(
            name: "01-map", lesson: ["01 · map"], hints: ["first hint", "second hint"],
            text: "# 01 · map\n#\n# hint: first hint\n# hint: second hint\n\njust 1 | map { todo }\nexpect values [2]\n")
    ]

    init(
        worker: WorkerCommand = TestRoom.shell("exit 0"), exercises: [RoomExercise] = TestRoom.exercises, state: URL? = nil,
        limits: HTTPServer.Limits = HTTPServer.Limits(), host: String = "127.0.0.1",
        configure: (inout RoomConfiguration) -> Void = { _ in }
    ) throws {
        self.state = state ?? FileManager.default.temporaryDirectory.appendingPathComponent("plumb-room-test-\(Secret.make())")
        var configuration = RoomConfiguration(exercises: exercises, stateDirectory: self.state, worker: worker)
        configure(&configuration)
        room = try Room(configuration)
        let room = self.room
        server = try HTTPServer(host: host, port: 0, limits: limits, bodyLimits: Room.bodyLimit, log: { _ in }) { room.handle($0) }
    }

    deinit { server.stop() }

    /// A child that runs `script` with `/bin/sh` instead of `plumb`.
    static func shell(_ script: String) -> WorkerCommand {
        WorkerCommand(executable: "/bin/sh", arguments: ["-c", script])
    }

    /// Sends `request` as written and reads the whole answer.
    func raw(_ request: String) throws -> HTTPAnswer {
        try RawHTTP.exchange(port: port, bytes: Array(request.utf8))
    }

    /// A request with the room's token (unless `token` says otherwise) and a learner.
    func send(
        _ method: String, _ path: String, body: String? = nil, room token: String?? = .none, learner: String? = nil, key: String? = nil,
        extraHeaders: [String] = []
    ) throws -> HTTPAnswer {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        let roomToken: String? = token ?? room.roomToken
        if let roomToken { lines.append("X-Plumb-Room: \(roomToken)") }
        if let learner { lines.append("X-Plumb-Learner: \(learner)") }
        if let key { lines.append("X-Plumb-Key: \(key)") }
        lines += extraHeaders
        let bytes = Array((body ?? "").utf8)
        if body != nil { lines += ["Content-Type: application/json", "Content-Length: \(bytes.count)"] }
        return try RawHTTP.exchange(port: port, bytes: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + bytes)
    }

    /// A one-time ticket for the learner's stream (`learner`) or, with `key`, the teacher's.
    func ticket(learner: String? = nil, key: String? = nil) throws -> String {
        let answer =
            key == nil
            ? try send("POST", "/api/stream", body: "{}", learner: learner) : try send("POST", "/api/teacher/stream", body: "{}", room: .some(nil), key: key)
        #expect(answer.status == 200, "\(answer.body)")
        return try #require(answer.json?["ticket"]?.string)
    }

    /// Opens the learner's (or, with `key`, the teacher's) event stream with a fresh ticket.
    func stream(learner: String? = nil, key: String? = nil) throws -> EventStreamClient {
        let ticket = try ticket(learner: learner, key: key)
        let client = try EventStreamClient(port: port, path: (key == nil ? "/api/events" : "/api/teacher/events") + "?ticket=" + ticket)
        #expect(client.status == 200, "\(client.head)")
        return client
    }

    /// Joins as `name`; the learner's `ID:SECRET`.
    func join(_ name: String = "Ada") throws -> String {
        let answer = try send("POST", "/api/join", body: #"{"name": "\#(name)"}"#)
        #expect(answer.status == 200, "\(answer.body)")
        return try #require(answer.json?["learner"]?.string)
    }
}

/// A response as read off the socket.
struct HTTPAnswer {
    var status: Int
    var head: String
    var body: String

    var json: JSON? { JSON.decode(Array(body.utf8)) }

    /// The stream's lines, each a JSON object (chunked transfer decoded).
    var lines: [JSON] { body.split(separator: "\n").compactMap { JSON.decode(Array($0.utf8)) } }

    /// The `result` line of a streamed run.
    var result: JSON? { lines.compactMap { $0["result"] }.first }
}

/// HTTP/1.1 over a plain loopback socket: requests exactly as written (no client normalises the
/// path), answers read to the end, every wait bounded.
enum RawHTTP {
    /// A connection to the room (over IPv6 loopback with `ipv6`); from `source` (another loopback
    /// address, such as 127.0.0.2: another client as the server counts them) when given, with a
    /// receive buffer of `receiveBuffer` bytes (a client that reads slowly) when given.
    static func connect(port: UInt16, ipv6: Bool = false, source: String? = nil, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError.socket }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw RawError.connect
            }
        }
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            close(fd)
            throw RawError.connect
        }
        return fd
    }

    static func exchange(port: UInt16, bytes: [UInt8], ipv6: Bool = false, source: String? = nil) throws -> HTTPAnswer {
        let fd = try connect(port: port, ipv6: ipv6, source: source)
        defer { close(fd) }
        write(fd, bytes)
        return parse(readAll(fd))
    }

    /// Sends all of `bytes` (as far as the peer takes them).
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
    }

    /// Reads until the server closes the connection: true when it did (end of stream or reset),
    /// false when the socket's 20 s receive timeout passed first.
    static func closedByServer(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { continue }
            return n == 0 || errno == ECONNRESET
        }
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        return answer
    }

    static func parse(_ bytes: [UInt8]) -> HTTPAnswer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return HTTPAnswer(status: 0, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        var body = String(text[split.upperBound...])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        if head.lowercased().contains("transfer-encoding: chunked") { body = dechunk(body) }
        return HTTPAnswer(status: status, head: head, body: body)
    }

    private static func dechunk(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        while let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\r")) {
            let size = Int(String(decoding: bytes[bytes.startIndex..<lineEnd], as: UTF8.self), radix: 16) ?? 0
            bytes = bytes[(lineEnd + 2)...]
            if size == 0 || bytes.count < size { break }
            out.append(contentsOf: bytes.prefix(size))
            bytes = bytes.dropFirst(size + 2)
        }
        return String(decoding: out, as: UTF8.self)
    }

    enum RawError: Error { case socket, connect }
}
