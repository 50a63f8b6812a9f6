import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `serve-check`: one Check through HTTP on loopback against `plumb serve` (the release `plumb`,
/// a subprocess), alone and with 40 learners checking at once. Baseline: the same check in the
/// child `plumb serve` starts for it, run directly (no HTTP, no line): the difference is what the
/// room adds.
let serveBenchmarks: [BenchCase] = [
    BenchCase(
        name: "serve-check",
        summary: "Check of exercise 01's solution over HTTP on loopback (plumb serve): alone, and p50/p99 with 40 learners at once"
    ) {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let workshop = root.appendingPathComponent("Examples/workshop").path
        guard let solution = try? String(contentsOfFile: workshop + "/solutions/01-map.pipe", encoding: .utf8),
            let room = ServeBench.Room.start(plumb: plumb, workshop: workshop)
        else {
            return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["plumb serve did not start"])
        }
        defer { room.stop() }
        let body = "{\"exercise\":\"01-map\",\"text\":\"" + ServeBench.escape(solution) + "\"}"
        guard let learner = room.join("bench") else { return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["join failed"]) }
        let alone = (0..<20).map { _ in room.timedCheck(body, learner: learner) }
        let baseline = (0..<20).map { _ in ServeBench.directCheck(plumb: plumb, text: solution) }
        // 40 learners, each checking 5 times, all at once.
        let learners = (0..<40).compactMap { room.join("learner \($0)") }
        let times = LockedTimes()
        // One thread per learner (concurrentPerform would run only as many as there are cores).
        let done = DispatchSemaphore(value: 0)
        for learner in learners {
            Thread {
                for _ in 0..<5 { times.add(room.timedCheck(body, learner: learner)) }
                done.signal()
            }.start()
        }
        for _ in learners { done.wait() }
        let loaded = times.sorted
        let failures = loaded.filter(\.isNaN).count + alone.filter(\.isNaN).count
        let aloneSorted = alone.sorted()
        return BenchResult(
            nsPerOp: aloneSorted[aloneSorted.count / 2], baselineNsPerOp: baseline.sorted()[baseline.count / 2],
            notes: [
                "alone: median \(ShellBench.ms(aloneSorted[aloneSorted.count / 2])), best \(ShellBench.ms(aloneSorted[0])) over 20 checks",
                "baseline: the check's child run directly, median of 20",
                "40 learners × 5 checks at once: p50 \(ShellBench.ms(ServeBench.percentile(loaded, 50))), p99 \(ShellBench.ms(ServeBench.percentile(loaded, 99))); failures \(failures)",
            ],
            extra: [
                "loaded_p50_ns": ServeBench.percentile(loaded, 50), "loaded_p99_ns": ServeBench.percentile(loaded, 99),
                "failures": Double(failures),
            ])
    }
]

/// Times, from many threads.
private final class LockedTimes: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var times: [Double] = []
    func add(_ t: Double) { lock.withLock { times.append(t) } }
    var sorted: [Double] { lock.withLock { times.sorted() } }
}

enum ServeBench {
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
    }

    /// A string's JSON escapes, without the quotes.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// The check's child, run directly: `PLUMB_SERVE_WORKER=check plumb` with the text on stdin.
    static func directCheck(plumb: String, text: String) -> Double {
        let start = nowNanoseconds()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: plumb)
        var environment = ProcessInfo.processInfo.environment
        environment["PLUMB_SERVE_WORKER"] = "check"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return .nan }
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? input.fileHandleForWriting.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Double(nowNanoseconds() - start)
    }

    /// A `plumb serve` subprocess on a free port with its own state folder.
    final class Room: @unchecked Sendable {  // immutable after start; used from many threads
        let process: Process
        let port: UInt16
        let token: String
        let state: URL

        init(process: Process, port: UInt16, token: String, state: URL) {
            self.process = process
            self.port = port
            self.token = token
            self.state = state
        }

        static func start(plumb: String, workshop: String) -> Room? {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-bench-room-\(UUID().uuidString)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: plumb)
            process.arguments = ["serve", workshop, "--port", "0", "--state", state.path]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return nil }
            var text = ""
            let handle = output.fileHandleForReading
            while !text.contains("teacher:") {
                let data = handle.availableData
                if data.isEmpty { return nil }
                text += String(decoding: data, as: UTF8.self)
            }
            // Keep reading the log, so the server never blocks on a full pipe.
            Thread { while !handle.availableData.isEmpty {} }.start()
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("learners: ") }),
                let url = URLComponents(string: String(line.dropFirst("learners: ".count))), let port = url.port,
                let token = url.queryItems?.first(where: { $0.name == "room" })?.value
            else { return nil }
            return Room(process: process, port: UInt16(port), token: token, state: state)
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: state)
        }

        func join(_ name: String) -> String? {
            let answer = exchange("POST", "/api/join", body: #"{"name":"\#(name)"}"#, learner: nil)
            guard let range = answer.range(of: #""learner":""#) else { return nil }
            return String(answer[range.upperBound...].prefix { $0 != "\"" })
        }

        /// One check, from request to verdict; NaN when it did not pass.
        func timedCheck(_ body: String, learner: String) -> Double {
            let start = nowNanoseconds()
            let answer = exchange("POST", "/api/check", body: body, learner: learner)
            let elapsed = Double(nowNanoseconds() - start)
            return answer.contains(#""passed":true"#) ? elapsed : .nan
        }

        private func exchange(_ method: String, _ path: String, body: String, learner: String?) -> String {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { return "" }
            let bytes = Array(body.utf8)
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Plumb-Room: \(token)\r\n"
            if let learner { head += "X-Plumb-Learner: \(learner)\r\n" }
            head += "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
            let request = Array(head.utf8) + bytes
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                answer.append(contentsOf: buffer[0..<n])
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }
}
