import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

/// The room's routes in process, without sockets or libmicrohttpd: a request value in
/// (`HTTPRequest`), a response value out (`Room.handle`).
@Suite struct RoutesTests {
    /// A room with its own state folder and a stand-in child that never runs here.
    final class Subject {
        let room: Room
        let state: URL

        init(exercises: [RoomExercise] = TestRoom.exercises) throws {
            state = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-routes-test-\(Secret.make())")
            room = try Room(RoomConfiguration(exercises: exercises, stateDirectory: state, worker: TestRoom.shell("exit 0")))
        }

        deinit { try? FileManager.default.removeItem(at: state) }

        /// A request with the given credentials (none unless asked).
        func send(
            _ method: String, _ path: String, query: [String: String] = [:], body: JSON? = nil, room token: Bool = false, learner: String? = nil,
            teacher: Bool = false, client: String = "127.0.0.1"
        ) -> HTTPResponse {
            var headers: [String: String] = [:]
            if token { headers["x-plumb-room"] = room.roomToken }
            if let learner { headers["x-plumb-learner"] = learner }
            if teacher { headers["x-plumb-key"] = room.teacherKey }
            return room.handle(
                HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array((body?.encoded ?? "").utf8), client: client))
        }

        /// Joins as `name`: the learner's `ID:SECRET`.
        func join(_ name: String = "Ada") throws -> String {
            let answer = send("POST", "/api/join", body: ["name": .string(name)], room: true)
            #expect(answer.status == 200)
            return try #require(answer.json?["learner"]?.string)
        }
    }

    @Test("each method and path is one row of the table")
    func oneRowEach() {
        let keys = Room.routes.map { "\($0.method) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(Room.routes.count == 28)
    }

    @Test("every row answers with its credentials, and refuses without them")
    func everyRow() throws {
        let subject = try Subject()
        let learner = try subject.join()
        for route in Room.routes {
            let with: HTTPResponse
            let without: HTTPResponse
            switch route.caller {
            case .anyone:
                with = subject.send(route.method, route.path)
                without = with
            case .roomPage:
                with = subject.send(route.method, route.path, query: ["room": subject.room.roomToken])
                without = subject.send(route.method, route.path)
            case .teacherPage:
                with = subject.send(route.method, route.path, query: ["key": subject.room.teacherKey])
                without = subject.send(route.method, route.path, query: ["key": subject.room.roomToken])
            case .ticket:
                let ticket =
                    route.path.contains("teacher")
                    ? subject.room.live.events.ticket(for: .teacher, now: Room.now) : subject.room.live.events.ticket(for: .learner("x"), now: Room.now)
                with = subject.send(route.method, route.path, query: ["ticket": ticket ?? ""])
                without = subject.send(route.method, route.path, query: ["ticket": "0"])
            case .room:
                with = subject.send(route.method, route.path, body: ["name": "Bea"], room: true)
                without = subject.send(route.method, route.path, body: ["name": "Bea"])
            case .learner:
                with = subject.send(
                    route.method, route.path, query: ["name": "01-map"], body: ["exercise": "01-map", "text": ":load x"], room: true, learner: learner)
                without = subject.send(route.method, route.path, body: ["exercise": "01-map"], room: true, learner: learner + "0")
            case .teacher:
                // Empty text ends present mode; a null pause shows the whole run (none here).
                with = subject.send(route.method, route.path, body: ["text": "", "pause": .null], teacher: true)
                without = subject.send(route.method, route.path, body: ["text": ""], room: true)
            }
            // The test clock is no endpoint at all in a room not started for tests.
            #expect(with.status == (route.path == "/api/teacher/test/clock" ? 404 : 200), "\(route.method) \(route.path): \(with.text)")
            if route.caller != .anyone { #expect([401, 403].contains(without.status), "\(route.method) \(route.path): \(without.text)") }
        }
        subject.room.live.events.closeAll()
    }

    @Test("a known path with another method is 405 with the methods it takes, after the caller's credentials")
    func wrongMethod() throws {
        let subject = try Subject()
        let learner = try subject.join()
        let answer = subject.send("DELETE", "/api/check", room: true, learner: learner)
        #expect(answer.status == 405)
        #expect(answer.headers.contains { $0 == ("Allow", "POST") })
        #expect(subject.send("GET", "/api/join", room: true).status == 405)
        #expect(subject.send("POST", "/", query: ["room": subject.room.roomToken]).headers.contains { $0 == ("Allow", "GET, HEAD") })
        #expect(subject.send("POST", "/api/teacher/room", teacher: true).status == 405)
        // Without the credentials the path's callers need, the method is not told.
        #expect(subject.send("DELETE", "/api/check", room: true).status == 401)
        #expect(subject.send("POST", "/api/teacher/room", room: true).status == 403)
    }

    @Test("each route's body limit is in its row: none for a route that reads no body, a program's text for run, step, compare, check and present")
    func bodyLimits() {
        for route in Room.routes {
            let limit = Room.bodyLimit(method: route.method, path: route.path)
            #expect(limit == HTTPServer.BodyLimit(bytes: route.bodyLimit, route: "\(route.method) \(route.path)"))
            // A GET or HEAD reads no body; every POST reads a JSON object (at least `{}`).
            #expect((route.method == "POST") == (route.bodyLimit > 0), "\(route.method) \(route.path)")
        }
        let text = Set(Room.routes.filter { $0.bodyLimit == Route.Body.text }.map(\.path))
        #expect(text == ["/api/run", "/api/step", "/api/compare", "/api/check", "/api/teacher/present"])
        #expect(Room.bodyLimit(method: "POST", path: "/api/join").bytes == 4 * 1024)
        // A path or a method no row has: a small default, as it is answered without its body.
        #expect(Room.bodyLimit(method: "POST", path: "/api/nothing") == HTTPServer.BodyLimit(bytes: Route.Body.unknown, route: "a request to no route"))
        #expect(Room.bodyLimit(method: "PUT", path: "/api/run").bytes == Route.Body.unknown)
        #expect(Route.Body.unknown < Route.Body.text)
    }

    @Test("the 413's message names the limit and the route")
    func bodyLimitRefusal() {
        #expect(Room.bodyLimit(method: "POST", path: "/api/run").refusal == "the request body is larger than 64 KiB, the limit for POST /api/run")
        #expect(Room.bodyLimit(method: "GET", path: "/api/present").refusal == "GET /api/present takes no request body")
        #expect(HTTPServer.BodyLimit(bytes: 1000, route: "POST /x").refusal == "the request body is larger than 1000 bytes, the limit for POST /x")
    }

    @Test("an unknown path is 404; under the APIs, only for a caller with the API's token")
    func unknownPath() throws {
        let subject = try Subject()
        #expect(subject.send("GET", "/nothing").status == 404)
        #expect(subject.send("GET", "/api/nothing").status == 403)
        #expect(subject.send("GET", "/api/nothing", room: true).status == 404)
        #expect(subject.send("GET", "/api/teacher/nothing", room: true).status == 403)
        #expect(subject.send("GET", "/api/teacher/nothing", teacher: true).text.contains("no such teacher endpoint"))
    }

    @Test("a path that could leave the served tree is 400", arguments: ["/static/../x", "/./", "/a\\b", "relative", "/\u{1}"])
    func unsafePath(_ path: String) throws {
        #expect(try Subject().send("GET", path).status == 400)
    }

    @Test("a learner joins, opens an exercise, takes a hint and resets it, all in process")
    func learnerFlow() throws {
        let subject = try Subject()
        let learner = try subject.join(" Ada\u{7} ")
        let list = subject.send("GET", "/api/exercises", room: true, learner: learner).json
        #expect(list?["name"] == "Ada")
        #expect(list?["exercises"]?.array?.first?["name"] == "01-map")
        let hint = subject.send("POST", "/api/hint", body: ["exercise": "01-map"], room: true, learner: learner).json
        #expect(hint?["hints"] == ["first hint"])
        let detail = subject.send("GET", "/api/exercise", query: ["name": "01-map"], room: true, learner: learner).json
        #expect(detail?["hints"] == ["first hint"])
        #expect(detail?["text"]?.string?.contains("map { todo }") == true)
        let reset = subject.send("POST", "/api/reset", body: ["exercise": "01-map"], room: true, learner: learner)
        #expect(reset.status == 200)
        #expect(subject.send("POST", "/api/hint", body: ["exercise": "nope"], room: true, learner: learner).status == 404)
        #expect(
            subject.send("POST", "/api/run", body: ["text": "just 1", "via": "events", "run": "bad id!"], room: true, learner: learner).status == 400)
        let table = subject.send("GET", "/api/teacher/room", teacher: true).json
        #expect(table?["learners"]?.array?.first?["cells"]?.array?.first?["hintsUsed"] == 1)
    }

    @Test("a :command is refused before any child starts, at its UTF-16 place")
    func refusedCommand() throws {
        let subject = try Subject()
        let learner = try subject.join()
        let answer = subject.send("POST", "/api/run", body: ["text": "just \"😀\"\n  :load x"], room: true, learner: learner)
        let line = try #require(JSON.decode(Array(answer.text.split(separator: "\n")[0].utf8)))
        let diagnostic = try #require(line["result"]?["diagnostics"]?.array?.first)
        #expect(diagnostic["id"] == "E801")
        // `just "😀"` is 9 units, `\n` one, and two blanks before the `:`; `:load x` is 7.
        #expect(diagnostic["start"] == 12)
        #expect(diagnostic["end"] == 19)
    }

    @Test("the teacher's present mode is shown to learners, and ends with empty text")
    func presentMode() throws {
        let subject = try Subject()
        #expect(subject.send("GET", "/api/present", room: true).json?["active"] == false)
        let ended = subject.send("POST", "/api/teacher/present", body: ["text": "  "], teacher: true)
        #expect(ended.json == ["active": false])
        #expect(subject.send("GET", "/api/present", room: true).json?["version"] == 1)
        #expect(subject.send("POST", "/api/teacher/present", body: ["nope": 1], teacher: true).status == 400)
    }

    @Test("wrong tokens from one client are refused with 429 after the room's allowance")
    func wrongTokens() throws {
        let subject = try Subject()
        let statuses = (0..<40).map { _ in subject.send("GET", "/api/present", client: "10.0.0.9").status }
        #expect(statuses.first == 403)
        #expect(statuses.last == 429)
        #expect(subject.send("GET", "/api/present", room: true).status == 200)
    }
}

extension HTTPResponse {
    /// The body as text (empty for a stream).
    var text: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    /// The body as JSON.
    var json: JSON? { JSON.decode(Array(text.utf8)) }
}
