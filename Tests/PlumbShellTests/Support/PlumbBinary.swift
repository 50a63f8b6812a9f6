import Foundation
import PlumbTestSupport
import Testing

/// What one run of the built `plumb` binary produced.
struct PlumbResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data
    /// True when it ended by a signal; `status` is then the signal's number.
    var endedBySignal = false

    var description: String {
        "\(endedBySignal ? "signal" : "exit") \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs the built `plumb` binary, swift-argument-parser's `AssertExecuteCommand` style.
enum PlumbBinary {
    /// The built `plumb` (`BuiltPlumb`, shared with the room's tests).
    static var url: URL? { BuiltPlumb.url }

    /// The package root (for `Examples/`).
    static var packageRoot: URL { BuiltPlumb.packageRoot }

    /// Runs `plumb arguments…` with `input` on standard input, colour off unless asked, and a 30 s watchdog.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: URL? = nil
    ) throws -> PlumbResult {
        let running = try start(arguments, input: input, environment: environment, directory: directory)
        return try running.finish(within: 30)
    }

    /// Starts `plumb arguments…` without waiting for it, for tests that watch its output or signal it.
    static func start(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: URL? = nil
    ) throws -> RunningPlumb {
        let binary = try #require(url, "\(BuiltPlumb.missing)")
        return try RunningPlumb(binary: binary, arguments: arguments, input: input, environment: environment, directory: directory)
    }

    /// Runs `script` with bash, `$PLUMB` naming the binary, for what only a shell sets up: closed
    /// descriptors (`<&-`, `>&-`), `| head -1`, `>/dev/full`, `<(…)`, FIFOs. Status and output are
    /// the script's (use `exit ${PIPESTATUS[0]}` to report plumb's own status from a pipe).
    static func shell(
        _ script: String, input: String? = nil, directory: URL? = nil,
        within seconds: Double = 30
    ) throws -> PlumbResult {
        let binary = try #require(url, "\(BuiltPlumb.missing)")
        // `timeout` kills its whole process group (plumb too, not only bash) with SIGKILL, which
        // the signal mask a test thread passes on cannot block; it then exits 137.
        let running = try RunningPlumb(
            binary: URL(fileURLWithPath: "/usr/bin/timeout"),
            arguments: ["-s", "KILL", String(Int(seconds)), "/bin/bash", "-c", script], input: input,
            environment: ["PLUMB": binary.path], directory: directory)
        let result = try running.finish(within: seconds + 10)
        if result.status == 128 + SIGKILL { Issue.record("`\(script)` did not finish within \(Int(seconds)) s") }
        return result
    }

    /// Writes `text` to a fresh temporary `.pipe` file and returns its path.
    static func script(_ text: String, name: String = "script") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-scripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(name).pipe")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A fresh temporary folder holding the given `.pipe` files.
    static func folder(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-folder-\(UUID().uuidString)")
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory.path
    }
}

/// A `plumb` process running with standard output and error going to files, so that a test can
/// read what it printed so far, signal it, and collect its result.
final class RunningPlumb {
    let arguments: [String]
    let process = Process()
    private let scratch: URL
    private let outURL: URL
    private let errURL: URL
    private let handles: [FileHandle]

    init(binary: URL, arguments: [String], input: String?, environment: [String: String], directory: URL?) throws {
        self.arguments = arguments
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }

        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        outURL = scratch.appendingPathComponent("out")
        errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((input ?? "").utf8))
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let inp = try FileHandle(forReadingFrom: inURL)
        handles = [out, err, inp]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What it has written to standard output so far.
    var stdout: String { String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self) }

    /// Polls until `condition` holds for the output so far, or `seconds` pass; returns whether it held.
    func waitForOutput(seconds: Double = 10, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && process.isRunning {
            if condition(stdout) { return true }
            usleep(10_000)
        }
        return condition(stdout)
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Waits for it to exit, recording an issue (and terminating it) when it takes longer than
    /// `seconds`.
    func finish(within seconds: Double) throws -> PlumbResult {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                Issue.record("plumb \(arguments) did not finish within \(Int(seconds)) s")
                break
            }
            usleep(2000)
        }
        process.waitUntilExit()
        let stdoutData = try Data(contentsOf: outURL)
        let stderrData = try Data(contentsOf: errURL)
        return PlumbResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            stdoutData: stdoutData,
            endedBySignal: process.terminationReason == .uncaughtSignal)
    }
}
