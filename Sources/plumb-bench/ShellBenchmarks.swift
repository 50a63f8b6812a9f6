import Foundation

/// Cases of the shell issue (`startup`, `print`, `interval-jitter`); they run the release `plumb`
/// binary (built next to `plumb-bench` by `swift build -c release`) as a subprocess.
let shellBenchmarks: [BenchCase] = [
    BenchCase(name: "startup", summary: "start-to-exit of `plumb run` on a one-line script (target < 50 ms)") {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let script = ShellBench.script("just 1\n")
        let baseline = ShellBench.best(of: 10) { ShellBench.spawn("/bin/true", []) }
        let cost = ShellBench.best(of: 20) { ShellBench.spawn(plumb, ["run", script]) }
        return BenchResult(
            nsPerOp: cost, baselineNsPerOp: baseline,
            notes: ["per run: \(ShellBench.ms(cost)) (baseline: spawning /bin/true); target under 50 ms"],
            extra: ["target_ns": 50_000_000])
    },
    BenchCase(name: "print", summary: "per event, `from 1...1000000 | sink` printed to /dev/null (target < 1 µs)") {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let events = 1_000_000
        let big = ShellBench.script("from 1...\(events) | sink\n")
        let small = ShellBench.script("from 1...1 | sink\n")
        let fixed = ShellBench.best(of: 5) { ShellBench.spawn(plumb, ["run", small]) }
        let total = ShellBench.best(of: 3) { ShellBench.spawn(plumb, ["run", big]) }
        let perEvent = max(0, total - fixed) / Double(events)
        let jsonl = ShellBench.best(of: 3) { ShellBench.spawn(plumb, ["--format", "jsonl", "run", big]) }
        let perEventJSON = max(0, jsonl - fixed) / Double(events)
        return BenchResult(
            nsPerOp: perEvent, baselineNsPerOp: nil,
            notes: [
                "\(events) events in \(ShellBench.ms(total)) (start-up \(ShellBench.ms(fixed)) subtracted)",
                "jsonl: \(String(format: "%.1f", perEventJSON)) ns per event; target under 1000 ns",
            ],
            extra: ["jsonl_ns_per_event": (perEventJSON * 100).rounded() / 100, "target_ns": 1000])
    },
    BenchCase(name: "interval-jitter", summary: "real clock `interval 10ms | take 100`: how late the 100th value lands, in ns") {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let script = ShellBench.script("interval 10ms | take 100\n")
        var lateness: [Double] = []
        var midLateness: [Double] = []
        for _ in 0..<3 {
            let output = ShellBench.capture(plumb, ["--format", "jsonl", "run", script])
            var times: [Double] = []
            for line in output.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["event"] as? String == "value", let t = object["t"] as? Double else { continue }
                times.append(t)
            }
            guard times.count == 100 else { continue }
            lateness.append((times[99] - 1.0) * 1e9)
            midLateness.append((times[49] - 0.5) * 1e9)
        }
        guard !lateness.isEmpty else {
            return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["plumb did not print 100 values"])
        }
        let median = lateness.sorted()[lateness.count / 2]
        let midMedian = midLateness.sorted()[midLateness.count / 2]
        return BenchResult(
            nsPerOp: median, baselineNsPerOp: nil,
            notes: [
                "100th value \(ShellBench.ms(median)) late (50th: \(ShellBench.ms(midMedian))); target within 50 ms (5% of 1 s)",
                "runs: " + lateness.map { ShellBench.ms($0) }.joined(separator: ", "),
            ],
            extra: ["late_50th_ns": midMedian.rounded(), "target_ns": 50_000_000])
    },
]

/// Helpers for the shell cases: find the binary, write scripts, spawn and time processes.
enum ShellBench {
    /// `plumb` next to this executable (same build folder), or `$PLUMB_BINARY`.
    static let binary: String? = {
        if let path = ProcessInfo.processInfo.environment["PLUMB_BINARY"] { return path }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = me.deletingLastPathComponent().appendingPathComponent("plumb").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()

    static let missing = BenchResult(
        nsPerOp: .nan, baselineNsPerOp: nil,
        notes: ["plumb binary not found: run `swift build -c release --product plumb` first (or set PLUMB_BINARY)"])

    static func script(_ text: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-bench-\(UUID().uuidString).pipe").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Runs a process with stdout and stderr to /dev/null; returns its wall-clock nanoseconds.
    static func spawn(_ path: String, _ arguments: [String]) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let start = nowNanoseconds()
        do { try process.run() } catch { return .nan }
        process.waitUntilExit()
        return Double(nowNanoseconds() - start)
    }

    /// Runs a process and returns its standard output.
    static func capture(_ path: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The fastest of `n` runs after a warm-up: the least noisy estimate on a shared machine.
    static func best(of n: Int, _ body: () -> Double) -> Double {
        _ = body()
        return (0..<n).map { _ in body() }.min() ?? .nan
    }

    static func ms(_ ns: Double) -> String { String(format: "%.2f ms", ns / 1e6) }
}
