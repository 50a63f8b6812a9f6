import Foundation
import PipeLanguage
import Reactive
import Synchronization

/// Cases of the shell issue (`startup`, `print`, `interrupt-latency`, `interval-jitter`); they run the release `plumb`
/// binary (built next to `plumb-bench` by `swift build -c release`) as a subprocess.
let shellBenchmarks: [BenchCase] = [
    BenchCase(name: "startup", summary: "start-to-exit of `plumb run` on a one-line script (target < 50 ms)") {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let script = ShellBench.script("just 1\n")
        let baseline = ShellBench.best(of: 10) { ShellBench.spawn("/bin/true", []) }
        let cost = ShellBench.best(of: 20) { ShellBench.spawn(plumb, ["run", script]) }
        let cpu = ShellBench.best(of: 5) { ShellBench.spawnMeasured(plumb, ["run", script]).cpu }
        return BenchResult(
            nsPerOp: cost, baselineNsPerOp: baseline,
            notes: ["per run: \(ShellBench.ms(cost)) wall, \(ShellBench.ms(cpu)) CPU (baseline: spawning /bin/true); target under 50 ms"],
            extra: ["target_ns": 50_000_000])
    },
    BenchCase(name: "print", summary: "per event, `from 1...1000000 | sink` printed to /dev/null (target < 1 µs)") {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let events = 1_000_000
        let big = ShellBench.script("from 1...\(events) | sink\n")
        let small = ShellBench.script("from 1...1 | sink\n")
        let quiet = ShellBench.script("from 1...\(events) | sink\nexpect count \(events)\n")
        // CPU time (user + system) of the child: the steadier measure on a shared machine.
        let fixed = ShellBench.best(of: 5) { ShellBench.spawnMeasured(plumb, ["run", small]).cpu }
        let total = ShellBench.best(of: 3) { ShellBench.spawnMeasured(plumb, ["run", big]).cpu }
        let wall = ShellBench.best(of: 3) { ShellBench.spawnMeasured(plumb, ["run", big]).wall }
        let perEvent = max(0, total - fixed) / Double(events)
        let jsonl = ShellBench.best(of: 3) { ShellBench.spawnMeasured(plumb, ["--format", "jsonl", "run", big]).cpu }
        let perEventJSON = max(0, jsonl - fixed) / Double(events)
        // Baseline: the same pipeline with nothing printed (`plumb test` records but does not print).
        let silent = ShellBench.best(of: 3) { ShellBench.spawnMeasured(plumb, ["test", quiet]).cpu }
        let perEventSilent = max(0, silent - fixed) / Double(events)
        // The pipeline alone, in this process: the same statement delivering its events to a
        // handler that only counts them. What the printed run costs beyond it is the shell's
        // recording and printing. CPU time of this thread (the run is synchronous), as the child's
        // is CPU time: on a loaded machine the wall clock would count other processes' turns.
        let session = Session(runtime: Runtime(clock: .real))
        let (statements, _) = session.compile("from 1...\(events) | sink", file: "bench")
        var pipelineOnly = Double.nan
        if let statement = statements.first, case .success(.run(let pipeline)) = session.execute(statement) {
            pipelineOnly = ShellBench.best(of: 3) {
                let start = threadCPUNanoseconds()
                let seen = Lock(0)
                let c = pipeline.start(trace: false) { event in
                    if case .value = event { seen.withLock { $0 += 1 } }
                }
                blackHole(seen.withLock { $0 })
                c.cancel()
                return Double(threadCPUNanoseconds() - start) / Double(events)
            }
        }
        let shellCost = perEvent - pipelineOnly
        return BenchResult(
            nsPerOp: perEvent, baselineNsPerOp: perEventSilent,
            notes: [
                "\(events) events: \(ShellBench.ms(total)) CPU, \(ShellBench.ms(wall)) wall (start-up \(ShellBench.ms(fixed)) CPU subtracted)",
                "baseline: the same run unprinted (plumb test); the difference is the printing",
                String(
                    format: "recording + printing: %.1f ns per event (the printed run less the pipeline alone, %.1f ns; CPU time both); target under 50",
                    shellCost,
                    pipelineOnly),
                "jsonl: \(String(format: "%.1f", perEventJSON)) ns per event; target under 1000 ns per event",
            ],
            extra: [
                "jsonl_ns_per_event": (perEventJSON * 100).rounded() / 100, "target_ns": 1000,
                "pipeline_ns_per_event": pipelineOnly, "record_print_ns_per_event": shellCost,
            ])
    },
    BenchCase(
        name: "interrupt-latency",
        summary:
            "SIGINT to a `plumb run` of `interval 10ms | sink`: from the signal to the end of its output, in ns (the terminal test only waits for the prompt)"
    ) {
        guard let plumb = ShellBench.binary else { return ShellBench.missing }
        let script = ShellBench.script("interval 10ms | sink\n")
        // A child inherits an ignored SIGINT (a bench started with `&` from a script has it
        // ignored), and plumb keeps an ignored SIGINT ignored, as it should: the child gets the
        // default disposition, which plumb then catches.
        let previous = signal(SIGINT, SIG_DFL)
        defer { signal(SIGINT, previous) }
        var latencies: [Double] = []
        var stuck = 0
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: plumb)
            process.arguments = ["run", script]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { continue }
            var seen = ""
            while !seen.contains("value 5") {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            let start = nowNanoseconds()
            kill(process.processIdentifier, SIGINT)
            // A plumb that does not stop is killed after 10 s and counted, not waited for.
            let pid = process.processIdentifier
            let exited = Atomic<Bool>(false)
            let watchdog = DispatchWorkItem { if !exited.load(ordering: .acquiring) { kill(pid, SIGKILL) } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
            _ = pipe.fileHandleForReading.readDataToEndOfFile()  // end of file: plumb has exited
            let latency = Double(nowNanoseconds() - start)
            process.waitUntilExit()
            exited.store(true, ordering: .releasing)
            watchdog.cancel()
            if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
                stuck += 1
            } else {
                latencies.append(latency)
            }
        }
        guard stuck == 0 else {
            return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["plumb did not stop within 10 s of SIGINT in \(stuck) of 5 runs"])
        }
        guard !latencies.isEmpty else {
            return BenchResult(nsPerOp: .nan, baselineNsPerOp: nil, notes: ["plumb did not start"])
        }
        let median = latencies.sorted()[latencies.count / 2]
        return BenchResult(
            nsPerOp: median, baselineNsPerOp: nil,
            notes: ["median of \(latencies.count): \(ShellBench.ms(median)) from SIGINT to exit; target under 100 ms"],
            extra: ["target_ns": 100_000_000])
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
                    object["event"] as? String == "value", let t = object["t"] as? Double
                else { continue }
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
        if let path = ProcessInfo.processInfo.environment["PLUMB_BINARY"] {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
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
    /// (posix_spawn and wait4 directly: Foundation's Process adds tens of milliseconds of polling.)
    static func spawn(_ path: String, _ arguments: [String]) -> Double {
        spawnMeasured(path, arguments).wall
    }

    /// Runs a process with stdout and stderr to /dev/null; returns wall-clock and CPU (user + system)
    /// nanoseconds. CPU time is the steadier figure on a machine shared with other builds.
    static func spawnMeasured(_ path: String, _ arguments: [String]) -> (wall: Double, cpu: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = nowNanoseconds()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return (.nan, .nan) }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let wall = Double(nowNanoseconds() - start)
        func ns(_ t: timeval) -> Double { Double(t.tv_sec) * 1e9 + Double(t.tv_usec) * 1e3 }
        return (wall, ns(usage.ru_utime) + ns(usage.ru_stime))
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
