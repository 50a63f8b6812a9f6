import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

/// State files however written (by hand, by a crash mid-write, by someone else) never stop the
/// room and never lose a learner silently: each bad one is reported with its path, kept beside
/// as `.corrupt`, and what can be read of it is kept (issue 41).
@Suite struct ServeStateFileTests {
    /// A room on `state`, its reports collected.
    final class Reported {
        let lines = LockedState<[String]>([])
        var all: [String] { lines.withLock { $0 } }

        func room(_ state: URL) throws -> TestRoom {
            let lines = self.lines
            return try TestRoom(state: state) { $0.report = { line in lines.withLock { $0.append(line) } } }
        }
    }

    static func folder() throws -> URL {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-state-test-\(Secret.make())")
        try FileManager.default.createDirectory(at: state.appendingPathComponent("learners"), withIntermediateDirectories: true)
        return state
    }

    static let id = "0123456789abcdef0123456789abcdef"
    static let secret = "fedcba9876543210fedcba9876543210"

    static func learnerFile(id: String = id, secret: String = secret, name: String = "Ada", extra: String = "") -> String {
        let now = Date().timeIntervalSince1970
        return #"{"id": "\#(id)", "secret": "\#(secret)", "name": "\#(name)", "joined": \#(now), "lastSeen": \#(now)\#(extra)}"#
    }

    @Test("a learner file whose id the room never makes is reported and set aside; asking for a hint as it is refused, and the room keeps serving")
    func foreignID() throws {
        let state = try Self.folder()
        let evil = state.appendingPathComponent("learners/evil.json")
        try Self.learnerFile(id: "zz-not-hex", secret: "s").write(to: evil, atomically: true, encoding: .utf8)
        let reported = Reported()
        let room = try reported.room(state)
        let hint = try room.send("POST", "/api/hint", body: #"{"exercise": "01-map"}"#, learner: "zz-not-hex:s")
        #expect(hint.status == 401)
        #expect(reported.all.contains { $0.contains(evil.path) && $0.contains("evil.json.corrupt") }, "\(reported.all)")
        #expect(FileManager.default.fileExists(atPath: evil.path + ".corrupt"))
        let learner = try room.join()
        #expect(try room.send("POST", "/api/hint", body: #"{"exercise": "01-map"}"#, learner: learner).status == 200)
    }

    @Test(
        "a learner file with values out of range is repaired and reported; the learner keeps going and the teacher's table still shows",
        arguments: [
            #", "progress": {"01-map": {"passed": false, "hintsUsed": -5, "checks": 0}}"#,
            #", "progress": {"01-map": {"passed": false, "hintsUsed": 9223372036854775807, "checks": 9223372036854775807}}"#,
            #", "progress": {"01-map": {"passed": true, "hintsUsed": 1, "checks": 1, "opened": -1e300, "passedAt": 1e300}}"#,
            #", "progress": {"01-map": 7}"#,
            #", "progress": "x", "playground": 5"#,
        ])
    func outOfRange(extra: String) throws {
        let state = try Self.folder()
        let file = state.appendingPathComponent("learners/\(Self.id).json")
        try Self.learnerFile(extra: extra).write(to: file, atomically: true, encoding: .utf8)
        let reported = Reported()
        let room = try reported.room(state)
        #expect(reported.all.contains { $0.contains(file.path) && $0.contains("out of range") }, "\(reported.all)")
        let learner = "\(Self.id):\(Self.secret)"
        #expect(try room.send("POST", "/api/hint", body: #"{"exercise": "01-map"}"#, learner: learner).status == 200)
        #expect(try room.send("GET", "/api/exercise?name=01-map", learner: learner).status == 200)
        let table = try room.send("GET", "/api/teacher/room", room: .some(nil), key: room.room.teacherKey)
        #expect(table.status == 200)
        #expect(table.body.contains("Ada"))
    }

    @Test(
        "a learner file with a name that is not text, or a record that is not JSON, never stops the room",
        arguments: ["", "[]", "null", "{", "\u{1b}[2J", "{\"id\": 1}"])
    func notARecord(text: String) throws {
        let state = try Self.folder()
        let file = state.appendingPathComponent("learners/\(Self.id).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let reported = Reported()
        let room = try reported.room(state)
        #expect(reported.all.contains { $0.contains(file.path) }, "\(reported.all)")
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))
        _ = try room.join()
    }

    @Test("a learner file cut short keeps the learner (their link still works) and what progress can be read; the original is kept as .corrupt")
    func truncatedLearner() throws {
        let state = try Self.folder()
        var learner = ""
        do {
            let room = try TestRoom(state: state)
            learner = try room.join("Grace")
            #expect(try room.send("POST", "/api/hint", body: #"{"exercise": "01-map"}"#, learner: learner).status == 200)
            room.server.stop()
        }
        let id = String(learner.split(separator: ":")[0])
        let file = state.appendingPathComponent("learners/\(id).json")
        let whole = try Data(contentsOf: file)
        let cut = whole.prefix(whole.count - 3)
        try cut.write(to: file)
        let reported = Reported()
        let room = try reported.room(state)
        #expect(reported.all.contains { $0.contains(file.path) && $0.contains("cut short") && $0.contains("Grace") }, "\(reported.all)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path + ".corrupt")) == cut)
        #expect(try room.send("GET", "/api/exercises", learner: learner).status == 200)
        let table = try room.send("GET", "/api/teacher/room", room: .some(nil), key: room.room.teacherKey)
        #expect(table.body.contains("Grace"))
    }

    @Test("a room.json cut short keeps the room's token (learners' links still work) and says what is new; the original is kept as .corrupt")
    func truncatedRoomFile() throws {
        let state = try Self.folder()
        let first = try TestRoom(state: state)
        let token = first.room.roomToken
        let learner = try first.join()
        first.server.stop()
        let file = state.appendingPathComponent("room.json")
        try Data(#"{"room":"\#(token)","teach"#.utf8).write(to: file)
        let reported = Reported()
        let room = try reported.room(state)
        #expect(room.room.roomToken == token)
        #expect(
            reported.all.contains { $0.contains(file.path) && $0.contains("room's token was kept") && $0.contains("teacher's key is new") }, "\(reported.all)")
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))
        #expect(try room.send("GET", "/api/exercises", learner: learner).status == 200)
    }

    @Test("a room.json that is not JSON is reported with its path and kept as .corrupt, not silently replaced")
    func garbageRoomFile() throws {
        let state = try Self.folder()
        let file = state.appendingPathComponent("room.json")
        try Data([0xff, 0x00, 0x1b]).write(to: file)
        let reported = Reported()
        _ = try reported.room(state)
        #expect(reported.all.contains { $0.contains(file.path) && $0.contains("learners need the new link") }, "\(reported.all)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path + ".corrupt")) == Data([0xff, 0x00, 0x1b]))
    }

    @Test("state is written whole and only the owner can read it; no temporary file is left behind")
    func atomicWrites() throws {
        let state = try Self.folder()
        try Data().write(to: state.appendingPathComponent("learners/.x.json.0.tmp"))
        let room = try TestRoom(state: state)
        _ = try room.join()
        let names = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("learners").path)
        #expect(names.count == 1)
        #expect(names.allSatisfy { $0.hasSuffix(".json") && !$0.hasPrefix(".") })
        let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("room.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
