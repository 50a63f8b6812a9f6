import Foundation
import PlumbJSON
import Testing

@testable import PlumbServer

/// The limits on learners' runs, with stand-in children (`/bin/sh`) that stall, flood or crash
/// as a learner's code might make `plumb` do.
@Suite struct ServeRunTests {
    static func runBody(_ text: String) -> String { JSON.object(["text": .string(text)]).encoded }

    @Test("a run past its real-time limit is ended, and the result says why")
    func timeLimit() throws {
        let room = try TestRoom(worker: TestRoom.shell("sleep 30")) { $0.runLimits.seconds = 1 }
        let learner = try room.join()
        let result = try #require(try room.send("POST", "/api/run", body: Self.runBody("just 1"), learner: learner).result)
        #expect(result["error"]?["message"]?.string?.hasPrefix("stopped after 1 s of real time") == true)
    }

    @Test("a run that floods events is ended at the room's cap")
    func outputLimit() throws {
        let room = try TestRoom(worker: TestRoom.shell(#"yes '{"event":"value","t":0,"value":1}'"#)) { $0.runLimits.maxEvents = 50 }
        let learner = try room.join()
        let answer = try room.send("POST", "/api/run", body: Self.runBody("just 1"), learner: learner)
        #expect(answer.lines.filter { $0["event"] != nil }.count == 50)
        #expect(answer.result?["error"]?["message"]?.string?.hasPrefix("stopped after 50 events") == true)
    }

    @Test("a child that crashes costs that run only: its result names the signal")
    func crash() throws {
        let room = try TestRoom(worker: TestRoom.shell("kill -SEGV $$"))
        let learner = try room.join()
        let result = try #require(try room.send("POST", "/api/run", body: Self.runBody("just 1"), learner: learner).result)
        #expect(result["error"]?["message"]?.string == "the run was ended by signal 11")
        #expect(try room.send("GET", "/api/exercises", learner: learner).status == 200)
    }

    @Test("one run at a time per learner: a second while the first goes is refused with 429")
    func oneAtATime() throws {
        let room = try TestRoom(worker: TestRoom.shell(#"sleep 2; echo '{"result":{"svg":null}}'"#))
        let learner = try room.join()
        let id = String(learner.split(separator: ":")[0])
        let first = LockedState<HTTPAnswer?>(nil)
        let port = room.port
        let token = room.room.roomToken
        let thread = Thread {
            let request =
                "POST /api/run HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Plumb-Room: \(token)\r\nX-Plumb-Learner: \(learner)\r\nContent-Length: 17\r\n\r\n{\"text\":\"just 1\"}"
            let answer = try? RawHTTP.exchange(port: port, bytes: Array(request.utf8))
            first.withLock { $0 = answer }
        }
        thread.start()
        while !room.room.runs.busy.withLock({ $0.contains(id) }) { usleep(10_000) }
        #expect(try room.send("POST", "/api/run", body: Self.runBody("just 2"), learner: learner).status == 429)
        while first.withLock({ $0 == nil }) { usleep(10_000) }
        #expect(first.withLock { $0?.result } == .object(["svg": .null]))
        #expect(try room.send("POST", "/api/run", body: Self.runBody("just 3"), learner: learner).status == 200)
    }

    @Test("past the room's slots a run waits in line and is told its place")
    func queue() throws {
        let room = try TestRoom(worker: TestRoom.shell(#"sleep 1; echo '{"result":{}}'"#)) { $0.capacity.slots = 1 }
        let ada = try room.join("Ada")
        let bea = try room.join("Bea")
        let port = room.port
        let token = room.room.roomToken
        let thread = Thread {
            let request =
                "POST /api/run HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Plumb-Room: \(token)\r\nX-Plumb-Learner: \(ada)\r\nContent-Length: 17\r\n\r\n{\"text\":\"just 1\"}"
            _ = try? RawHTTP.exchange(port: port, bytes: Array(request.utf8))
        }
        thread.start()
        while room.room.runs.queue.counts.running == 0 { usleep(10_000) }
        let answer = try room.send("POST", "/api/run", body: Self.runBody("just 2"), learner: bea)
        #expect(answer.lines.first == .object(["queued": .int(1)]))
        #expect(answer.result == .object([:]))
    }

    @Test("a full line is refused with 503")
    func fullLine() throws {
        let room = try TestRoom(worker: TestRoom.shell("sleep 5")) {
            $0.capacity.slots = 1
            $0.capacity.maxWaiting = 0
        }
        let learner = try room.join()
        #expect(try room.send("POST", "/api/run", body: Self.runBody("just 1"), learner: learner).status == 503)
    }

    @Test("hints come one at a time and are remembered")
    func hints() throws {
        let room = try TestRoom()
        let learner = try room.join()
        let body = #"{"exercise": "01-map"}"#
        #expect(try room.send("POST", "/api/hint", body: body, learner: learner).json?["hints"] == .array([.string("first hint")]))
        #expect(try room.send("GET", "/api/exercise?name=01-map", learner: learner).json?["hints"]?.array?.count == 1)
        #expect(try room.send("POST", "/api/hint", body: body, learner: learner).json?["hints"]?.array?.count == 2)
        #expect(try room.send("POST", "/api/hint", body: body, learner: learner).json?["hints"]?.array?.count == 2)
        #expect(
            try room.send("GET", "/api/teacher/room", key: room.room.teacherKey).json?["learners"]?.array?.first?["cells"]?.array?.first?["hintsUsed"]
                == .int(2))
    }

    @Test("progress, the learner's text and the room's URLs survive a restart of the server")
    func restart() throws {
        let first = try TestRoom(worker: TestRoom.shell(#"echo '{"result":{"passed":true}}'"#))
        let learner = try first.join()
        let check = JSON.object(["exercise": .string("01-map"), "text": .string("just 2\nexpect values [2]")]).encoded
        #expect(try first.send("POST", "/api/check", body: check, learner: learner).result?["passed"]?.bool == true)
        let token = first.room.roomToken
        first.server.stop()
        let second = try TestRoom(state: first.state)
        #expect(second.room.roomToken == token)
        let list = try second.send("GET", "/api/exercises", learner: learner).json
        #expect(list?["exercises"]?.array?.first?["passed"]?.bool == true)
        #expect(try second.send("GET", "/api/exercise?name=01-map", learner: learner).json?["text"]?.string == "just 2\nexpect values [2]")
    }
}
