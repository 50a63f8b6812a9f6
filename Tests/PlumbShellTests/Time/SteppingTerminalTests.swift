import Foundation
import Testing

/// `:step` at the keyboard, through tmux (`TerminalTests.Pane`): each Enter's screen, a break, a
/// paused run fed by sends, Ctrl-C at the paused prompt.
@Suite(.serialized) struct SteppingTerminalTests {
    static let tmux = TerminalTests.tmux

    private func pane() throws -> TerminalTests.Pane {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: Self.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        return pane
    }

    /// The screen from the last line starting with `from` on, trailing blank lines dropped.
    private func tail(_ pane: TerminalTests.Pane, from marker: String) -> String {
        var lines = pane.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        guard let start = lines.lastIndex(where: { $0.hasPrefix(marker) }) else { return "" }
        return lines[start...].joined(separator: "\n")
    }

    @Test(
        "stepping marble \"-a-b-c|\" | debounce 150ms: each Enter's screen, event by event, to the end",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func steppedDebounce() throws {
        let pane = try pane()
        try pane.type(":step marble \"-a-b-c|\" | debounce 150ms")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 0 ms]>" }, "\(pane.screen)")
        #expect(
            tail(pane, from: "plumb> :step") == """
                plumb> :step marble "-a-b-c|" | debounce 150ms
                  +0.000s  subscribed
                                       0 ms
                [0] marble "-a-b-c|"   ^
                [1] debounce 150ms     ^
                                       ▲ 0 ms
                                       1 column = 200 µs
                paused: Enter steps to the next event; also :advance D, :continue, :break STAGE, :stop
                plumb [paused 0 ms]>
                """, "\(pane.screen)")
        let screens: [(prompt: String, shows: String)] = [
            (
                "plumb [paused 100 ms]>",
                """
                plumb [paused 0 ms]>
                  +0.100s  │ [0] marble value "a"
                                       0   200 ms
                [0] marble "-a-b-c|"   ^-a
                [1] debounce 150ms     ^--
                                         ▲ 100 ms
                                       1 column = 50 ms
                plumb [paused 100 ms]>
                """
            ),
            (
                "plumb [paused 250 ms]>",
                """
                plumb [paused 100 ms]>
                  +0.250s  │ [1] debounce value "a"
                  +0.250s  value "a"
                                       0   200 ms
                [0] marble "-a-b-c|"   ^-a---
                [1] debounce 150ms     ^----a
                                            ▲ 250 ms
                                       1 column = 50 ms
                plumb [paused 250 ms]>
                """
            ),
            ("plumb [paused 300 ms]>", "  +0.300s  │ [0] marble value \"b\""),
            ("plumb [paused 450 ms]>", "  +0.450s  value \"b\""),
            ("plumb [paused 500 ms]>", "  +0.500s  │ [0] marble value \"c\""),
            (
                "plumb>",
                """
                plumb [paused 500 ms]>
                  +0.600s  │ [0] marble finished
                  +0.600s  │ [1] debounce finished
                  +0.600s  finished                2 values in 600 ms
                                       0   200 400 600 ms
                [0] marble "-a-b-c|"   ^-a---b---c-|
                [1] debounce 150ms     ^----a---b--|
                                       1 column = 50 ms
                plumb>
                """
            ),
        ]
        for (prompt, shows) in screens {
            try pane.send("Enter")
            #expect(pane.wait { $0.lastLine == prompt }, "no \(prompt):\n\(pane.screen)")
            let first = shows.split(separator: "\n").first.map(String.init) ?? shows
            let screen = first.hasPrefix("plumb") ? tail(pane, from: first) : pane.screen
            #expect(first.hasPrefix("plumb") ? screen == shows : screen.contains(shows), "expected:\n\(shows)\ngot:\n\(pane.screen)")
        }
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        ":break on a stage pauses :continue there; Tab completes the command and its words",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func breakOnStage() throws {
        let pane = try pane()
        try pane.type(":step marble \"-a-b-c|\" | debounce 150ms")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 0 ms]>" }, "\(pane.screen)")
        try pane.type(":brea")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb [paused 0 ms]> :break") }, "\(pane.screen)")
        try pane.type("debounce va")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb [paused 0 ms]> :break debounce value") }, "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("break at [1] debounce 150ms on value") }, "\(pane.screen)")
        try pane.type(":continue")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 250 ms]>" }, "\(pane.screen)")
        #expect(pane.screen.contains("break [1] debounce 150ms: value \"a\" at 250 ms"), "\(pane.screen)")
        #expect(!pane.screen.contains("value \"b\""), "ran past the break:\n\(pane.screen)")
        try pane.type(":c")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 450 ms]>" }, "\(pane.screen)")
        try pane.type(":stop")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb>" && $0.screen.contains("cancelled               2 values in 450 ms") }, "\(pane.screen)")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> :stop" }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "a paused run fed with s.send: values arrive at the paused instant, Enter steps on, Ctrl-C cancels it and the shell stays",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func fedBySends() throws {
        let pane = try pane()
        try pane.type("let s = subject")
        try pane.send("Enter")
        try pane.type(":step s | debounce 100ms | map { $0 * 10 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 0 ms]>" }, "\(pane.screen)")
        try pane.type("s.send 3")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("  +0.000s  │ [0] s value 3") && $0.lastLine == "plumb [paused 0 ms]>" }, "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb [paused 100 ms]>" }, "\(pane.screen)")
        #expect(pane.screen.contains("  +0.100s  │ [2] map value 30\n  +0.100s  value 30"), "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("nothing is scheduled: the run waits for input") }, "\(pane.screen)")
        try pane.send("C-c")
        #expect(pane.wait { $0.lastLine == "plumb>" && $0.screen.contains("cancelled               1 value in 100 ms") }, "\(pane.screen)")
        #expect(pane.isAlive)
        try pane.type("s | sink &")
        try pane.send("Enter")
        try pane.type("s.send 5")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") }, "the subject is gone:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        ":step of a long synchronous source: Ctrl-C while time 0 runs cancels it at once, as in the foreground, and the shell stays",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func interruptedSynchronousStart() throws {
        let pane = try pane()
        try pane.type(":step from 1...100000000")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("│ [0] from value") }, "no values:\n\(pane.screen)")
        let pressed = Date()
        try pane.send("C-c")
        #expect(
            pane.wait(seconds: 5) { $0.lastLine == "plumb>" && $0.screen.contains("cancelled") },
            "Ctrl-C did not stop the stepped start:\n\(pane.screen)")
        #expect(Date().timeIntervalSince(pressed) < 5, "Ctrl-C took \(Date().timeIntervalSince(pressed)) s")
        try pane.type("just 3")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 3") && $0.lastLine == "plumb>" }, "the session is gone:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
