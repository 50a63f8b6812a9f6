import Foundation
import Testing

/// Drives the REPL in a real pseudo-terminal through tmux: what a person at the keyboard sees.
@Suite(.serialized) struct TerminalTests {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A tmux session running plumb, killed at the end.
    final class Pane {
        let name = "plumb-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let tmux: String
        let history: String

        init(tmux: String, binary: URL) throws {
            self.tmux = tmux
            history = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).history").path
            try run(["new-session", "-d", "-s", name, "-x", "100", "-y", "40",
                     "env PLUMB_HISTORY=\(history) NO_COLOR=1 TERM=xterm \(binary.path)"])
        }

        deinit {
            _ = try? run(["kill-session", "-t", name])
            try? FileManager.default.removeItem(atPath: history)
        }

        @discardableResult
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tmux)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        func send(_ keys: String...) throws { try run(["send-keys", "-t", name] + keys) }
        func type(_ text: String) throws { try run(["send-keys", "-t", name, "-l", text]) }

        var screen: String { (try? run(["capture-pane", "-p", "-t", name, "-S", "-200"]).output) ?? "" }
        var isAlive: Bool { (try? run(["has-session", "-t", name]).status) == 0 }

        /// The last non-blank line on the screen.
        var lastLine: String {
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
        }

        /// Polls until `condition` holds or `seconds` pass; returns whether it held.
        func wait(seconds: Double = 10, _ condition: (Pane) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(self) { return true }
                usleep(20_000)
            }
            return condition(self)
        }
    }

    @Test("type a pipeline, Ctrl-C an interval, the prompt returns, Ctrl-D exits",
          .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func interactiveSession() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")

        try pane.type("from [1, 2, 3] | map { $0 * 2 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 6") && $0.lastLine == "plumb>" }, "\(pane.screen)")

        try pane.type("interval 10ms | sink")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") }, "interval did not run:\n\(pane.screen)")
        let pressed = Date()
        try pane.send("C-c")
        #expect(pane.wait(seconds: 5) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(Date().timeIntervalSince(pressed) < 2, "the prompt took too long to return")
        #expect(pane.isAlive, "Ctrl-C killed the shell")

        // Ctrl-C at the prompt clears the line and keeps the shell.
        try pane.type("half typed")
        try pane.send("C-c")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")

        // Tab completes :commands; Up recalls history.
        try pane.type(":he")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb> :help") }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> interval 10ms | sink" }, "\(pane.screen)")
        try pane.send("C-u")

        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test("a background job prints above the prompt without corrupting the typed line",
          .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func backgroundJob() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("interval 200ms | take 3 | sink &")
        try pane.send("Enter")
        try pane.type("just 4")
        #expect(pane.wait { $0.screen.contains("[1] +0.600s  finished") || $0.screen.contains("[1] +0.6") && $0.screen.contains("finished") },
                "\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb> just 4" }, "the typed line was not redrawn:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 4") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })
    }
}
