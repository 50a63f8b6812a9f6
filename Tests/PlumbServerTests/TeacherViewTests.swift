import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

/// What the teacher's page reads from the room (`GET /api/teacher/room`, the `room` event): the
/// per-exercise totals, who is stuck and why, the room's common mistakes, and how learners join.
/// In process, without sockets (as `RoutesTests`); a learner's progress is set as the room's
/// checks leave it (`Roster.update`), and the table is read at a chosen instant of the server's
/// clock (`roomTable(now:)`), so no test waits.
@Suite struct TeacherViewTests {
    typealias Subject = RoutesTests.Subject

    static let exercises = [
        RoomExercise(name: "01-map", lesson: ["01"], hints: [], text: "just 1 | map { todo }\nexpect values [2]\n"),
        RoomExercise(name: "02-filter", lesson: ["02"], hints: [], text: "from [1, 2] | filter { todo }\nexpect values [2]\n"),
    ]

    /// A room with two exercises.
    static func subject() throws -> Subject { try Subject(exercises: exercises) }

    /// The learner's id (the part before `:`).
    static func id(_ learner: String) -> String { String(learner.split(separator: ":")[0]) }

    /// Leaves a learner's exercise as checks that failed with `message` would (`count` of them),
    /// the learner's answer `text` kept, the exercise opened at `opened`.
    static func failed(_ subject: Subject, _ learner: String, _ exercise: String, message: String, text: String, count: Int = 1, opened: Double) {
        subject.room.roster.update(id(learner)) { record in
            var progress = record.progress[exercise] ?? ExerciseProgress()
            progress.opened = opened
            progress.checks += count
            progress.lastMessage = message
            progress.text = text
            record.progress[exercise] = progress
            record.current = exercise
        }
    }

    @Test("the totals row counts, per exercise, who passed it, who is trying it and who has not started it")
    func totals() throws {
        let subject = try Self.subject()
        let ada = try subject.join("Ada")
        let bea = try subject.join("Bea")
        _ = try subject.join("Cy")
        // Ada opens 01 (trying); Bea passed 01 and opened 02.
        #expect(subject.send("GET", "/api/exercise", query: ["name": "01-map"], room: true, learner: ada).status == 200)
        subject.room.roster.update(Self.id(bea)) { record in
            record.progress["01-map"] = ExerciseProgress(passed: true, checks: 1, opened: Room.now, passedAt: Room.now)
        }
        #expect(subject.send("GET", "/api/exercise", query: ["name": "02-filter"], room: true, learner: bea).status == 200)
        let table = try #require(subject.send("GET", "/api/teacher/room", teacher: true).json)
        #expect(table["totals"] == [["passed": 1, "trying": 1, "notStarted": 1], ["passed": 0, "trying": 1, "notStarted": 2]])
        let rows = try #require(table["learners"]?.array)
        #expect(rows.map { $0["name"] } == ["Ada", "Bea", "Cy"])
        #expect(rows.map { $0["passed"] } == [0, 1, 0])
        // The exercise each is on now, by its index: Ada 01, Bea 02, Cy none.
        #expect(rows.map { $0["current"] } == [0, 1, .null])
    }

    @Test("the test clock moves the table's time only in a room started for tests; elsewhere it is no endpoint")
    func testClock() throws {
        let subject = try Self.subject()
        let ada = try subject.join("Ada")
        #expect(subject.send("GET", "/api/exercise", query: ["name": "01-map"], room: true, learner: ada).status == 200)
        let advance: JSON = ["advance": 660]
        // A room as `plumb serve` starts it without PLUMB_SERVE_TEST_CLOCK: 404, the clock unmoved.
        #expect(subject.send("POST", "/api/teacher/test/clock", body: advance, teacher: true).status == 404)
        #expect(subject.send("GET", "/api/teacher/room", teacher: true).json?["learners"]?.array?.first?["stuck"] == .null)
        subject.room.allowTestClock()
        // The teacher's key is still needed, and a sane number of seconds.
        #expect(subject.send("POST", "/api/teacher/test/clock", body: advance, room: true).status == 403)
        #expect(subject.send("POST", "/api/teacher/test/clock", body: ["advance": -5], teacher: true).status == 400)
        #expect(subject.send("POST", "/api/teacher/test/clock", body: advance, teacher: true).status == 200)
        let stuck = subject.send("GET", "/api/teacher/room", teacher: true).json?["learners"]?.array?.first?["stuck"]?.string
        #expect(stuck == "11 min")
    }

    @Test("a table update stays small whatever the room typed: 3 groups an exercise, 24 in all, the rest counted")
    func mistakesBounded() throws {
        let subject = try Self.subject()
        let now = Room.now
        // 40 learners, each failing both exercises their own way with a 4,000-character answer.
        for n in 0..<40 {
            let learner = try subject.join("Learner \(n)")
            for exercise in ["01-map", "02-filter"] {
                Self.failed(
                    subject, learner, exercise, message: "expected values [2], got values [\(n)]", text: String(repeating: "x", count: 4000), opened: now)
            }
        }
        let table = subject.room.roomTable(now: now)
        let mistakes = try #require(table["mistakes"]?.array)
        #expect(mistakes.map { $0["exercise"]?.string ?? "" } == ["01-map", "01-map", "01-map", "02-filter", "02-filter", "02-filter"])
        #expect(table["mistakesLeftOut"] == .int(74))
        #expect(table.encoded.utf8.count < 40_000, "\(table.encoded.utf8.count) bytes")
    }

    @Test("a learner is stuck past 10 minutes on the current exercise, read on the server's clock")
    func stuckByTime() throws {
        let subject = try Self.subject()
        let ada = try subject.join("Ada")
        #expect(subject.send("GET", "/api/exercise", query: ["name": "01-map"], room: true, learner: ada).status == 200)
        let opened = try #require(subject.room.roster.record(Self.id(ada))?.progress["01-map"]?.opened)
        let table = subject.room.roomTable(now: opened + 9 * 60)
        #expect(table["learners"]?.array?.first?["stuck"] == .null)
        let later = subject.room.roomTable(now: opened + 11 * 60)
        #expect(later["learners"]?.array?.first?["stuck"] == "11 min")
        #expect(later["stuckRule"] == "stuck: more than 10 min on the current exercise, or 3 failed checks on it")
        // Passing it ends it: a passed exercise is nobody's current one.
        subject.room.roster.update(Self.id(ada)) { $0.progress["01-map"]?.passed = true }
        #expect(subject.room.roomTable(now: opened + 11 * 60)["learners"]?.array?.first?["stuck"] == .null)
    }

    @Test("a learner is stuck from the third failed check on the current exercise, and only on it")
    func stuckByChecks() throws {
        let subject = try Self.subject()
        let ada = try subject.join("Ada")
        let now = Room.now
        Self.failed(subject, ada, "01-map", message: "expected values [2], got values [1]", text: "x", count: 2, opened: now)
        #expect(subject.room.roomTable(now: now)["learners"]?.array?.first?["stuck"] == .null)
        Self.failed(subject, ada, "01-map", message: "expected values [2], got values [1]", text: "x", opened: now)
        #expect(subject.room.roomTable(now: now)["learners"]?.array?.first?["stuck"] == "3 failed checks")
        // Moving on to 02 leaves 01's failures behind: the rule reads the current exercise.
        #expect(subject.send("GET", "/api/exercise", query: ["name": "02-filter"], room: true, learner: ada).status == 200)
        let row = subject.room.roomTable(now: now)["learners"]?.array?.first
        #expect(row?["current"] == 1)
        #expect(row?["stuck"] == .null)
        // The rule is the room's: a stricter one marks sooner.
        var rule = StuckRule(minutes: 1, failedChecks: 1)
        #expect(rule.reason(ExerciseProgress(checks: 1), now: now) == "1 failed checks")
        rule.failedChecks = 5
        #expect(rule.reason(ExerciseProgress(checks: 1, opened: now - 90), now: now) == "1 min")
        #expect(rule.words == "stuck: more than 1 min on the current exercise, or 5 failed checks on it")
    }

    @Test("a failure is normalised to its first expectation: file and line, 'expect failed:', blanks and the diff's lines go")
    func failureNormalised() {
        #expect(MistakeGroups.failure(of: "expected values [2, 4, 6], got values [3, 6, 9]") == "expected values [2, 4, 6], got values [3, 6, 9]")
        #expect(
            MistakeGroups.failure(of: "01-map.pipe:2: expect failed: expected marbles \"-a-b|\",  got \"(ab|)\"\n  expected -a-b|\n  actual   (ab|)\n")
                == "expected marbles \"-a-b|\", got \"(ab|)\"")
        #expect(MistakeGroups.failure(of: "\n\n") == "the check failed")
        #expect(MistakeGroups.failure(of: String(repeating: "x", count: 500)).count == MistakeGroups.failureCharacters)
    }

    @Test("three learners with two kinds of wrong answer make two groups, counted, each with an answer and no name")
    func mistakes() throws {
        let subject = try Self.subject()
        let now = Room.now
        let ada = try subject.join("Ada")
        let bea = try subject.join("Bea")
        let cy = try subject.join("Cy")
        let dee = try subject.join("Dee")
        Self.failed(subject, ada, "01-map", message: "expected values [2], got values [1]", text: "just 1 | map { $0 }\nexpect values [2]\n", opened: now)
        Self.failed(
            subject, bea, "01-map", message: "01-map.pipe:2: expect failed: expected values [2], got values [1]\n  detail",
            text: "just 1 | map { $0 * 1 }\nexpect values [2]\n", opened: now)
        Self.failed(subject, cy, "01-map", message: "expected values [2], got values [3]", text: "just 1 | map { $0 + 2 }\nexpect values [2]\n", opened: now)
        // Dee failed once, then passed: no longer a mistake of the room's.
        Self.failed(subject, dee, "01-map", message: "expected values [2], got values [3]", text: "just 1 | map { $0 + 2 }\nexpect values [2]\n", opened: now)
        subject.room.roster.update(Self.id(dee)) { $0.progress["01-map"]?.passed = true }
        let table = try #require(subject.send("GET", "/api/teacher/room", teacher: true).json)
        #expect(
            table["mistakes"] == [
                [
                    "exercise": "01-map", "failure": "expected values [2], got values [1]", "count": 2,
                    "example": "just 1 | map { $0 }\nexpect values [2]\n",
                ],
                [
                    "exercise": "01-map", "failure": "expected values [2], got values [3]", "count": 1,
                    "example": "just 1 | map { $0 + 2 }\nexpect values [2]\n",
                ],
            ])
        #expect(!(table["mistakes"]?.encoded.contains("Ada") ?? true))
    }

    @Test("on loopback the teacher's join answer says phones cannot reach it and gives the --host command")
    func joinOnLoopback() throws {
        let subject = try Self.subject()
        #expect(subject.send("GET", "/api/teacher/join", teacher: true).json == ["url": .null])
        #expect(subject.send("GET", "/api/teacher/join", room: true).status == 403)
        let url = "http://127.0.0.1:8080/?room=\(subject.room.roomToken)"
        let command = "plumb serve Examples/workshop --host 0.0.0.0 --port 8080"
        subject.room.announce(url: url, loopback: true, openCommand: command)
        let join = try #require(subject.send("GET", "/api/teacher/join", teacher: true).json)
        #expect(join["url"]?.string == url)
        #expect(join["loopback"] == true)
        #expect(join["warning"]?.string?.contains("phones and other machines cannot reach") == true)
        #expect(join["command"]?.string == command)
        #expect(join["svg"]?.string?.hasPrefix("<svg") == true)
        #expect(Room.loopbackNote(openCommand: command).hasSuffix("serve it on the network:\n  \(command)\n"))
        // On the network: no warning, no command.
        subject.room.announce(url: "http://laptop.local:8080/?room=x", loopback: false, openCommand: command)
        let open = try #require(subject.send("GET", "/api/teacher/join", teacher: true).json)
        #expect(open["warning"] == nil && open["command"] == nil && open["loopback"] == false)
    }
}
