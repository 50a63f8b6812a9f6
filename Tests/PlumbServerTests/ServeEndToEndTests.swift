import Foundation
import PlumbJSON
import PlumbTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import PlumbServer

/// The room with its real children: the built `plumb`, started as `plumb serve` starts it.
@Suite struct ServeEndToEndTests {
    func room(configure: (inout RoomConfiguration) -> Void = { _ in }) throws -> TestRoom {
        let binary = try #require(BuiltPlumb.path, "\(BuiltPlumb.missing)")
        let text = try exercise("01-map.pipe")
        return try TestRoom(
            worker: WorkerCommand(executable: binary), exercises: [RoomExercise(name: "01-map", lesson: [], hints: [], text: text)],
            configure: configure)
    }

    func exercise(_ file: String) throws -> String {
        try String(contentsOf: BuiltPlumb.packageRoot.appendingPathComponent("Examples/workshop/\(file)"), encoding: .utf8)
    }

    func check(_ room: TestRoom, _ text: String, learner: String) throws -> JSON {
        let body = JSON.object(["exercise": .string("01-map"), "text": .string(text)]).encoded
        return try #require(try room.send("POST", "/api/check", body: body, learner: learner).result)
    }

    @Test("Check is plumb learn's checker: the solution passes, a wrong answer fails with what differs")
    func checks() throws {
        let room = try room()
        let learner = try room.join()
        let shipped = try exercise("01-map.pipe")
        let wrong = try check(room, shipped.replacingOccurrences(of: "todo", with: "$0 * 2"), learner: learner)
        #expect(wrong["passed"]?.bool == false)
        #expect(wrong["message"]?.string == "expected values [120, 300, 1198, 6], got values [200, 500, 1998, 10]")
        #expect(wrong["svg"]?.string?.contains("<svg") == true)
        let todo = try check(room, shipped, learner: learner)
        #expect(todo["passed"]?.bool == false)
        let right = try check(room, try exercise("solutions/01-map.pipe"), learner: learner)
        #expect(right["passed"]?.bool == true, "\(right)")
        let list = try room.send("GET", "/api/exercises", learner: learner).json
        #expect(list?["exercises"]?.array?.first?["passed"]?.bool == true)
    }

    @Test("a marble expectation that fails shows the marble diff")
    func marbleDiff() throws {
        let room = try room()
        let learner = try room.join()
        let late = try exercise("01-map.pipe").replacingOccurrences(of: "map { todo }", with: "map { $0 * 120 / 100 } | delay 1s")
        let message = try #require(try check(room, late, learner: learner)["message"]?.string)
        #expect(message.contains("expected -'120'-'300'-'1198'-6-|"), "\(message)")
        #expect(message.contains("frame 1 (100ms): expected '120', got no event"))
    }

    @Test("a text without one of the exercise's expect lines fails before it runs")
    func expectLineRemoved() throws {
        let room = try room()
        let learner = try room.join()
        let text = try exercise("solutions/01-map.pipe").replacingOccurrences(of: "expect values [120, 300, 1198, 6]\n", with: "")
        #expect(try check(room, text, learner: learner)["message"]?.string?.contains("E802") == true)
    }

    @Test("a run streams its events and ends with the SVG diagram; values are escaped in it")
    func run() throws {
        let room = try room()
        let learner = try room.join()
        let body = JSON.object(["text": .string(#"from ["1", "2"] | map { "<script>" + $0 }"#)]).encoded
        let answer = try room.send("POST", "/api/run", body: body, learner: learner)
        let events = answer.lines.compactMap { $0["event"] }
        #expect(events.map { $0["event"]?.string ?? "" } == ["subscribed", "value", "value", "finished"])
        #expect(events[1]["value"]?.string == "<script>1")
        let svg = try #require(answer.result?["svg"]?.string)
        #expect(svg.contains("&lt;script&gt;1"))
        #expect(!svg.contains("<script"))
    }

    @Test("an error comes back with its position in the editor's units and its fix-it")
    func diagnostics() throws {
        let room = try room()
        let learner = try room.join()
        let body = JSON.object(["text": .string("just \"é\" | retyr 3")]).encoded
        let result = try #require(try room.send("POST", "/api/run", body: body, learner: learner).result)
        let diagnostic = try #require(result["diagnostics"]?.array?.first)
        #expect(diagnostic["id"]?.string == "E302")
        #expect(diagnostic["start"] == .int(11))
        #expect(diagnostic["end"] == .int(16))
        #expect(diagnostic["fixed"]?.string == "just \"é\" | retry 3")
    }

    @Test("an endless source is stopped at the room's limits, and another learner's check still passes")
    func endless() throws {
        let room = try room()
        let ada = try room.join("Ada")
        let bea = try room.join("Bea")
        let body = JSON.object(["text": .string("interval 1ms")]).encoded
        let result = try #require(try room.send("POST", "/api/run", body: body, learner: ada).result)
        #expect(result["error"]?["message"]?.string?.hasPrefix("stopped after") == true, "\(result)")
        #expect(try check(room, try exercise("solutions/01-map.pipe"), learner: bea)["passed"]?.bool == true)
    }

    @Test("a run that allocates without end stops at the child's memory limit with a clear message; the room keeps serving")
    func memoryLimit() throws {
        // Time enough that the memory limit is what stops it, however loaded the machine: the
        // child needs about 0.3 s of CPU to reach it, but beside other tests its real time is
        // anyone's guess.
        let room = try room {
            // 32 MiB: a normal check's worker needs about 12 MB of data (VmData 11.2 to 12.4 MB
            // measured for 01-map's solution with 5 or 6 threads, each thread's stack bounded to
            // `RunLimits.threadStackBytes`), so this is near what a greedy run really gets.
            $0.runLimits.memoryBytes = 32 << 20
            $0.runLimits.seconds = 30
        }
        let ada = try room.join("Ada")
        // Strings of 8 MiB (doubled 23 times, then one byte more per value), a new one per value,
        // all kept by collect.
        let greedy = #"from 1...100000 | scan "x" { $1 < 24 ? $0 + $0 : $0 + "y" } | collect | count"#
        let result = try #require(try room.send("POST", "/api/run", body: JSON.object(["text": .string(greedy)]).encoded, learner: ada).result)
        #expect(
            result["error"]?["message"]?.string
                == "stopped: the run needed more than 32 MiB of memory, the room's limit for each run (does it collect or build up values without end?)",
            "\(result)")
        let small = try #require(
            try room.send("POST", "/api/run", body: JSON.object(["text": .string("from 1...3 | collect")]).encoded, learner: ada).result)
        #expect(small["error"] == nil, "\(small)")
        let checked = try check(room, try exercise("solutions/01-map.pipe"), learner: room.join("Bea"))
        #expect(checked["passed"]?.bool == true, "\(checked)")
    }

    @Test("every workshop solution runs, and 01-map's passes its check, under a 24 MiB data limit, however many threads it starts")
    func normalRunsFitTheMemoryLimit() throws {
        // With glibc's 8 MiB thread stacks a run's data was 40 MB with 5 threads and 48 MB with
        // 6 (all of a thread's stack counts toward RLIMIT_DATA): none fit here, and at 48 MiB the
        // count of threads Dispatch happened to start decided. With stacks bounded to
        // `RunLimits.threadStackBytes` the solutions' runs need 5.5 to 13.4 MB with 2 to 7 threads.
        let room = try room {
            $0.runLimits.memoryBytes = 24 << 20
            $0.runLimits.seconds = 30
        }
        let bea = try room.join("Bea")
        let folder = BuiltPlumb.packageRoot.appendingPathComponent("Examples/workshop/solutions")
        let solutions = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pipe") }.sorted()
        #expect(solutions.count >= 19)
        for solution in solutions {
            let body = JSON.object(["text": .string(try exercise("solutions/" + solution))])
            let answer = try room.send("POST", "/api/run", body: body.encoded, learner: bea)
            #expect(answer.result != nil && answer.result?["error"] == nil, "\(solution): \(answer.status) \(answer.body.suffix(300))")
        }
        let checked = try check(room, try exercise("solutions/01-map.pipe"), learner: bea)
        #expect(checked["passed"]?.bool == true, "\(checked)")
    }

    /// Starts `plumb serve` on the workshop with `arguments`, reads its standard output until
    /// `done` says it has what the test needs (or 60 s pass), then ends it with SIGTERM.
    /// - Returns: everything it printed, and its exit status.
    static func serve(_ arguments: [String], until done: (String) -> Bool) throws -> (output: String, status: Int32) {
        let binary = try #require(BuiltPlumb.path, "\(BuiltPlumb.missing)")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-serve-test-\(Secret.make())")
        defer { try? FileManager.default.removeItem(at: state) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments =
            ["serve", BuiltPlumb.packageRoot.appendingPathComponent("Examples/workshop").path, "--port", "0", "--state", state.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        let deadline = Date(timeIntervalSinceNow: 60)
        let handle = output.fileHandleForReading
        while !done(text), Date() < deadline, process.isRunning {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        process.terminate()
        text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus)
    }

    @Test("plumb serve --qr prints the learners' URL as the QR code libqrencode makes; piped without --qr, none; SIGTERM stops it")
    func qrCode() throws {
        let (withCode, status) = try Self.serve(["--qr"]) { $0.contains("\u{1B}[0m\n\n") }
        #expect(status == 0, "\(withCode)")
        #expect(withCode.hasSuffix("plumb serve: stopped\n"), "\(withCode)")
        let url = try #require(withCode.firstMatch(of: #/learners: (\S+)/#)?.1)
        let code = try #require(QRCode(String(url)))
        #expect(withCode.contains(code.rendered()))
        let (plain, _) = try Self.serve([]) { $0.contains("teacher:") }
        #expect(plain.contains("teacher:") && !plain.contains("▀"), "\(plain)")
    }

    @Test("plumb serve on loopback says phones cannot reach it and prints the --host command that serves the same room")
    func loopbackNote() throws {
        let (output, _) = try Self.serve(["--no-qr"]) { $0.contains("--host 0.0.0.0") && $0.hasSuffix("\n") }
        let port = try #require(output.firstMatch(of: #/learners: http://127\.0\.0\.1:(\d+)//#)?.1, "\(output)")
        #expect(output.contains("note: the room listens on this machine's loopback only: phones and other machines cannot reach this URL"), "\(output)")
        let command = try #require(output.firstMatch(of: #/\n  (plumb serve \S+ --host 0\.0\.0\.0 --port (\d+) --state \S+)\n/#), "\(output)")
        #expect(command.2 == port)
        #expect(command.1.contains("Examples/workshop"))
    }

    @Test("plumb serve --host ::1 listens on IPv6 loopback and prints a bracketed URL", .enabled(if: IPv6.loopback, "this machine has no IPv6 loopback (::1)"))
    func ipv6URL() throws {
        let (output, _) = try Self.serve(["--host", "::1", "--no-qr"]) { $0.contains("teacher:") }
        let learners = try #require(output.firstMatch(of: #/learners: http://\[::1\]:(\d+)/\?room=[0-9a-f]{32}/#), "\(output)")
        #expect(Int(learners.1) ?? 0 > 0)
        #expect(output.contains("teacher:  http://[::1]:"))
        #expect(!output.contains("note: listening"), "::1 is loopback")
    }
}

/// Whether this machine can listen on IPv6 loopback.
enum IPv6 {
    static let loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()
}
