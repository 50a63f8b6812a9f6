import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

#if canImport(Glibc)
import Glibc
#endif

/// The live streams: server-sent events to the teacher's table and the learners' pages, read over
/// loopback as a browser's `EventSource` reads them. Nothing here polls: each update arrives on
/// a stream that was opened before it happened.
@Suite struct ServeEventsTests {
    /// A child that passes every check and sends one event before its result.
    static let passing = TestRoom.shell(#"cat >/dev/null; echo '{"event":"value","t":0,"value":7}'; echo '{"result":{"passed":true}}'"#)

    func check(_ room: TestRoom, learner: String, via run: String? = nil) throws -> HTTPAnswer {
        var body: [String: JSON] = ["exercise": .string("01-map"), "text": .string(TestRoom.exercises[0].code)]
        if let run {
            body["via"] = .string("events")
            body["run"] = .string(run)
        }
        return try room.send("POST", "/api/check", body: JSON.object(body).encoded, learner: learner)
    }

    @Test("the teacher's stream shows a learner's check passing, without the page asking again")
    func teacherSeesCheck() throws {
        let room = try TestRoom(worker: Self.passing)
        let learner = try room.join("Ada")
        let stream = try room.stream(key: room.room.teacherKey)
        #expect(stream.head.lowercased().contains("content-type: text/event-stream"))
        let first = try #require(stream.next(where: { $0.name == "room" }))
        #expect(first.data?["learners"]?.array?.first?["cells"]?.array?.first?["passed"]?.bool == false)
        #expect(try check(room, learner: learner).result?["passed"]?.bool == true)
        let passed = stream.next { event in
            event.name == "room" && event.data?["learners"]?.array?.first?["cells"]?.array?.first?["passed"]?.bool == true
        }
        #expect(passed?.data?["learners"]?.array?.first?["name"]?.string == "Ada")
    }

    @Test("a learner's run sent to the stream arrives there with its id: events as they happen, then the result")
    func runOnStream() throws {
        let room = try TestRoom(worker: Self.passing)
        let learner = try room.join()
        let stream = try room.stream(learner: learner)
        #expect(stream.next()?.name == "present")
        let answer = try check(room, learner: learner, via: "r1-x")
        #expect(answer.status == 202)
        #expect(answer.json?["run"]?.string == "r1-x")
        let value = try #require(stream.next { $0.name == "run" && $0.data?["event"] != nil })
        #expect(value.data?["run"]?.string == "r1-x")
        #expect(value.data?["event"]?["value"]?.int == 7)
        let result = try #require(stream.next { $0.name == "run" && $0.data?["result"] != nil })
        #expect(result.data?["result"]?["passed"]?.bool == true)
        #expect(try room.send("GET", "/api/exercises", learner: learner).json?["exercises"]?.array?.first?["passed"]?.bool == true)
        #expect(try check(room, learner: learner, via: "../x").status == 400)
    }

    @Test("present mode reaches every learner's stream when the teacher presents, and ends there too")
    func presentReachesLearners() throws {
        let room = try TestRoom(worker: TestRoom.shell(#"cat >/dev/null; echo '{"event":"value","t":0,"value":6}'; echo '{"result":{"svg":"<svg/>"}}'"#))
        let streams = try ["Ada", "Bea"].map { try room.stream(learner: room.join($0)) }
        for stream in streams { #expect(stream.next()?.data?["active"]?.bool == false) }
        let present = try room.send("POST", "/api/teacher/present", body: #"{"text": "from [1, 2, 3]"}"#, room: .some(nil), key: room.room.teacherKey)
        #expect(present.result != nil)
        for stream in streams {
            let shown = try #require(stream.next { $0.name == "present" })
            #expect(shown.data?["active"]?.bool == true)
            #expect(shown.data?["text"]?.string == "from [1, 2, 3]")
            #expect(shown.data?["events"]?.array?.first?["value"]?.int == 6)
        }
        _ = try room.send("POST", "/api/teacher/present", body: #"{"text": ""}"#, room: .some(nil), key: room.room.teacherKey)
        for stream in streams { #expect(stream.next { $0.name == "present" }?.data?["active"]?.bool == false) }
    }

    @Test("a stream needs a fresh ticket: none, a wrong one, a spent one and the room's token are refused with 403")
    func ticketsRequired() throws {
        let room = try TestRoom()
        let learner = try room.join()
        #expect(try room.send("GET", "/api/events").status == 403)
        #expect(try room.send("GET", "/api/events?ticket=" + String(repeating: "0", count: 32)).status == 403)
        #expect(try room.send("GET", "/api/events?room=" + room.room.roomToken).status == 403)
        #expect(try room.send("GET", "/api/teacher/events?ticket=" + room.room.teacherKey, room: .some(nil)).status == 403)
        let ticket = try room.ticket(learner: learner)
        let first = try EventStreamClient(port: room.port, path: "/api/events?ticket=" + ticket)
        #expect(first.status == 200)
        #expect(try room.send("GET", "/api/events?ticket=" + ticket).status == 403)
        // A learner's ticket never opens the teacher's stream, and a ticket needs the header token.
        #expect(try room.send("GET", "/api/teacher/events?ticket=" + room.ticket(learner: learner)).status == 403)
        #expect(try room.send("POST", "/api/stream", body: "{}", room: .some(nil), learner: learner).status == 403)
        #expect(try room.send("POST", "/api/teacher/stream", body: "{}", learner: learner).status == 403)
        #expect(try room.send("POST", "/api/stream", body: "{}").status == 401)
    }

    @Test("a learner has at most three streams: a fourth ends the oldest, which its reader sees end")
    func streamsBounded() throws {
        let room = try TestRoom()
        let learner = try room.join()
        let streams = try (0..<4).map { _ in try room.stream(learner: learner) }
        #expect(streams[0].readToEnd())
        #expect(room.room.live.events.count == 3)
        for stream in streams.dropFirst() { #expect(stream.next()?.name == "present") }
    }

    @Test("stopping the server ends every stream: its reader sees the end, not a hang")
    func stopEndsStreams() throws {
        let room = try TestRoom()
        let learner = try room.join()
        let learnerStream = try room.stream(learner: learner)
        let teacherStream = try room.stream(key: room.room.teacherKey)
        #expect(learnerStream.next()?.name == "present")
        #expect(teacherStream.next()?.name == "room")
        // The teacher's stream carries present mode too (the present view is a teacher's page).
        #expect(teacherStream.next()?.name == "present")
        #expect(room.server.openStreams == 2)
        room.server.stop()
        #expect(learnerStream.next() == nil)
        #expect(teacherStream.next() == nil)
        #expect(room.server.openStreams == 0)
    }

    @Test("an idle stream costs no thread: 30 open streams leave the server's thread count where it was")
    func noThreadPerStream() throws {
        let room = try TestRoom()
        let learners = try (0..<10).map { try room.join("L\($0)") }
        _ = try room.stream(key: room.room.teacherKey).next()
        let before = Self.threads()
        var streams: [EventStreamClient] = []
        for learner in learners {
            for _ in 0..<3 { streams.append(try room.stream(learner: learner)) }
        }
        for stream in streams { #expect(stream.next()?.name == "present") }
        #expect(room.server.openStreams == 31)
        #expect(Self.threads() - before < 5, "threads before \(before), after \(Self.threads())")
    }

    /// This process's threads, from /proc.
    static func threads() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }.flatMap { Int($0.dropFirst(8).trimmingCharacters(in: .whitespaces)) } ?? 0
    }
}
