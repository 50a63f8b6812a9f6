import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `plumb serve`'s request log must never hold up a request: found by the load test, whose
/// harness stopped reading the server's output and, once the pipe was full, every request hung
/// on its log line.
@Suite struct ServeLogTests {
    @Test("requests are answered while nobody reads plumb serve's output", .timeLimit(.minutes(2)))
    func unreadLog() throws {
        let binary = try #require(PlumbBinary.url)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-serve-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", PlumbBinary.packageRoot.appendingPathComponent("Examples/workshop").path, "--port", "0", "--state", state.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var text = ""
        while !text.contains("teacher:") {
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "plumb serve ended before printing its addresses")
            text += String(decoding: data, as: UTF8.self)
        }
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("learners: ") })
        let url = try #require(URLComponents(string: String(line.dropFirst("learners: ".count))))
        let port = UInt16(try #require(url.port))
        // From here on nothing reads the output: 3,000 log lines are several times a pipe's buffer.
        // Any answer counts (past the room's rate limit it is 429); none within 5 s is a hang.
        var answered = 0
        for _ in 0..<3_000 {
            if Self.get(port: port, path: "/static/room.css") != 0 { answered += 1 } else { break }
        }
        #expect(answered == 3_000)
    }

    /// One GET on its own connection; its status, or 0 when the answer did not end (the server
    /// closing the connection) within 5 s.
    static func get(port: UInt16, path: String) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return 0 }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { return 0 }
            if n == 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        let head = String(decoding: answer.prefix(32), as: UTF8.self)
        return head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
