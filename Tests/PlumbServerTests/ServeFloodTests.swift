import Foundation
import Testing

@testable import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// A room keeps serving its known learners under a flood from elsewhere: connections (each
/// address gets a quarter of them, and a request head that never ends is cut off early) and joins
/// (a burst per address, then a rate) (issue 41).
@Suite struct ServeFloodTests {
    /// Room for this process's descriptors: the flood's client ends and the server's.
    static func raiseDescriptorLimit() {
        var files = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = min(files.rlim_max, 65_536)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        }
    }

    static func joinRequest(_ token: String, name: String = "Ada") -> [UInt8] {
        let body = #"{"name": "\#(name)"}"#
        return Array(
            "POST /api/join HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Plumb-Room: \(token)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    @Test("2 × 1,030 half-sent requests from two other addresses leave room for a known learner and a new one")
    func connectionFlood() throws {
        Self.raiseDescriptorLimit()
        let room = try TestRoom()
        let learner = try room.join()
        var flood: [Int32] = []
        defer { for fd in flood { close(fd) } }
        for source in ["127.0.0.2", "127.0.0.3"] {
            for _ in 0..<1_030 {
                guard let fd = try? RawHTTP.connect(port: room.port, source: source) else { continue }
                RawHTTP.write(fd, Array("GET /static/room.css HTTP/1.1\r\nHo".utf8))
                flood.append(fd)
            }
        }
        #expect(try room.send("GET", "/api/exercises", learner: learner).status == 200)
        #expect(try room.send("POST", "/api/join", body: #"{"name": "Bea"}"#).status == 200)
    }

    @Test("a connection that never finishes its request head is closed at the head limit, well before the idle limit")
    func headLimit() throws {
        var limits = HTTPServer.Limits()
        limits.headerSeconds = 1
        limits.idleSeconds = 600
        let room = try TestRoom(limits: limits)
        let fd = try RawHTTP.connect(port: room.port)
        defer { close(fd) }
        RawHTTP.write(fd, Array("GET /static/room.css HTTP/1.1\r\nHo".utf8))
        // The socket's own receive timeout is 20 s: closed by the server means the head limit.
        #expect(RawHTTP.closedByServer(fd))
        // A whole head gets the idle limit: a body still coming is waited for.
        let slowBody = try RawHTTP.connect(port: room.port)
        defer { close(slowBody) }
        RawHTTP.write(slowBody, Array("POST /api/join HTTP/1.1\r\nHost: x\r\nX-Plumb-Room: \(room.room.roomToken)\r\nContent-Length: 15\r\n\r\n{".utf8))
        usleep(2_500_000)
        RawHTTP.write(slowBody, Array(#""name": "Ada"}"#.utf8))
        #expect(RawHTTP.parse(RawHTTP.readAll(slowBody)).status == 200)
    }

    @Test("one address joining learners over and over is refused with 429 and told why; another address still joins")
    func joinFlood() throws {
        let room = try TestRoom()
        var statuses: [Int] = []
        var last = HTTPAnswer(status: 0, head: "", body: "")
        for i in 0..<100 {
            last = try RawHTTP.exchange(port: room.port, bytes: Self.joinRequest(room.room.roomToken, name: "bot \(i)"))
            statuses.append(last.status)
        }
        #expect(statuses.prefix(60).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.suffix(30).allSatisfy { $0 == 429 }, "\(statuses)")
        #expect(last.body.contains("too many learners joined from your address"), "\(last.body)")
        let other = try RawHTTP.exchange(port: room.port, bytes: Self.joinRequest(room.room.roomToken), source: "127.0.0.2")
        #expect(other.status == 200)
    }

    @Test("the request log on the teacher's terminal shows no control character a client sent: C0, DEL and C1 (U+009B) become pictures")
    func requestLogIsSafe() throws {
        var sent = false
        let (output, _) = try ServeEndToEndTests.serve(["--no-qr"]) { text in
            if !sent, let match = text.firstMatch(of: #/learners: http://127\.0\.0\.1:(\d+)/#), let port = UInt16(match.1) {
                sent = true
                let request = "GET /%1B%5B2J%C2%9B31m%07%7F HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                _ = try? RawHTTP.exchange(port: port, bytes: Array(request.utf8))
            }
            return text.contains(" 400 ")
        }
        #expect(output.contains(" 400 "), "\(output)")
        let bad = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
        #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
        #expect(output.contains("␛[2J"), "\(output)")
    }
}
