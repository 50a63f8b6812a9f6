import Foundation
import Testing

/// Long waits a learner can always get out of, tried in a real terminal (tmux).
@Suite(.serialized) struct InterruptibleWaitTests {
    @Test(
        ":load of a FIFO nobody writes to: Ctrl-C gives the prompt back with the reason",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func fifoLoad() throws {
        let binary = try #require(PlumbBinary.url)
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type(":load \(fifo)")
        try pane.send("Enter")
        usleep(300_000)
        try pane.send("C-c")
        // The message may wrap at the pane's width (the path is long): read it without line breaks.
        #expect(pane.wait { $0.screen.replacingOccurrences(of: "\n", with: "").contains("interrupted while waiting") }, "\(pane.screen)")
        try pane.type("just 5")
        try pane.send("Enter")
        // Ctrl-D at the prompt: a Ctrl-D typed while the run still draws its diagram reaches a
        // terminal in its cooked mode, which keeps no end-of-file for the next prompt (ci31c).
        #expect(
            pane.wait { $0.screen.contains("value 5") && $0.lastLine == "plumb>" }, "the session did not go on:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "\(pane.screen)")
    }

    @Test(
        "plumb learn with an exercise that would run for a long time: q quits while it is checked",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func learnQuitsDuringACheck() throws {
        let binary = try #require(PlumbBinary.url)
        // 1000 hours of a 1 ms interval: minutes of work, far past any test's patience.
        let folder = try PlumbBinary.folder(["01-endless.pipe": "# endless\ninterval 1ms | combineLatest (just 1)\nexpect count 3\n"])
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary, arguments: ["--until", "1000h", "learn", folder])
        usleep(500_000)
        try pane.type("q")
        #expect(pane.wait { !$0.isAlive }, "q did not quit:\n\(pane.screen)")
    }
}

/// A paste with a typo in its first line, as a learner pastes from the handout.
@Suite(.serialized) struct PastedLinesTests {
    @Test(
        "pasted lines after a line with a fix-it run as pasted; the fix waits in the history (Up)",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func pasteWithTypo() throws {
        let binary = try #require(PlumbBinary.url)
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        // Not bracketed: the lines arrive as typed, all at once.
        try pane.run(["set-buffer", "-b", "paste", "just 1 | retyr 3\njust 2\njust 3\n"])
        try pane.run(["paste-buffer", "-b", "paste", "-t", pane.name])
        #expect(pane.wait { $0.screen.contains("value 3") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(!pane.screen.contains("retry 3just"), "the fix took the next pasted line:\n\(pane.screen)")
        #expect(pane.screen.contains("value 2"), "\(pane.screen)")
        #expect(pane.screen.contains("fix: just 1 | retry 3  (more lines follow: press Up to get it back)"), "\(pane.screen)")
        try pane.send("Up")
        try pane.send("Up")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> just 1 | retry 3" }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "\(pane.screen)")
    }

    @Test(
        "a bracketed paste with a typo in its first line: the other lines still run, one by one",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func bracketedPasteWithTypo() throws {
        let binary = try #require(PlumbBinary.url)
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.run(["set-buffer", "-b", "paste", "just 1 | retyr 3\njust 2\nfrom [7,\n 8]\n"])
        try pane.run(["paste-buffer", "-p", "-b", "paste", "-t", pane.name])
        usleep(300_000)
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 8") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.screen.contains("unknown operator 'retyr'") && pane.screen.contains("value 2"), "\(pane.screen)")
        #expect(pane.screen.contains("fix: just 1 | retry 3  (more lines follow: press Up to get it back)"), "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "\(pane.screen)")
    }
}
