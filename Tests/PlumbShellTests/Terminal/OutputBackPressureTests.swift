import Foundation
import Testing

/// Output to a terminal that does not read, and jobs whose source is synchronous: plumb's memory
/// stays bounded, Ctrl-C still stops a run, and the prompt stays the person's.
@Suite(.serialized) struct OutputBackPressureTests {
    static let tmux = TerminalTests.tmux

    /// The resident memory of the pane's process (plumb), in kB.
    private func residentKB(_ pane: TerminalTests.Pane) -> Int? {
        guard let pid = (try? pane.run(["display-message", "-p", "-t", pane.name, "#{pane_pid}"]))?.output.trimmingCharacters(in: .whitespacesAndNewlines),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    @Test(
        "a real-clock run printing to a terminal stopped with Ctrl-S: memory stays flat, Ctrl-C cancels it, Ctrl-Q shows what was dropped",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func stoppedTerminal() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: Self.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from 1...100000000")
        try pane.send("Enter")
        // Any value past the thousandth: the screen scrolls by faster than it is read back, so a
        // fixed value may never be on it when it is looked at.
        #expect(
            pane.wait(seconds: 30) { $0.screen.range(of: #"value [0-9]{4,}"#, options: .regularExpression) != nil },
            "no values:\n\(pane.screen)")
        try pane.send("C-s")
        usleep(1_000_000)
        let early = try #require(residentKB(pane))
        usleep(6_000_000)
        let late = try #require(residentKB(pane))
        #expect(late - early < 12_000, "memory grew by \(late - early) kB in 6 s while the terminal was stopped")
        try pane.send("C-c")
        usleep(500_000)
        try pane.send("C-q")
        #expect(
            pane.wait(seconds: 20) { $0.lastLine == "plumb>" && $0.screen.contains("cancelled") },
            "Ctrl-C did not stop the run:\n\(pane.screen)")
        #expect(pane.screen.contains("not shown: they came faster than the terminal read them"), "nothing says what was dropped:\n\(pane.screen)")
        try pane.type("just 5")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "on the virtual clock too, a background job with a long synchronous source leaves the prompt: other lines run, :cancel stops it",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func virtualClockJobKeepsThePrompt() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: Self.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from 1...100000000 | count &")
        try pane.send("Enter")
        #expect(
            pane.wait(seconds: 5) { $0.screen.contains("[1] from 1...100000000 | count") && $0.lastLine == "plumb>" },
            "the job took the prompt:\n\(pane.screen)")
        try pane.type("just 3")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 3") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":jobs")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("[1] running") }, "\(pane.screen)")
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
