import Foundation
import Testing

/// A `channel` at the keyboard (issue 39): a job reads it and shows each value sent; a send
/// nobody reads says that it waits, and Ctrl-C gives the prompt back with the channel, the
/// bindings and the history kept; `c.finish` ends the reader; a send after it is E334. An
/// AsyncChannel's send "will await the consumption of that value by iteration", and a cancelled
/// send resumes while "other operations from other tasks will remain active" (swift-async-algorithms'
/// Channel guide).
@Suite(.serialized) struct ChannelTerminalTests {
    typealias Pane = TerminalTests.Pane

    @Test(
        "c.send shows the reader's value; with no reader it says it waits, Ctrl-C gives the prompt back; finish; send after finish is E334",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func channelAtThePrompt() throws {
        let pane = try AsyncTerminalTests.pane()
        try pane.type("let c = channel")
        try pane.send("Enter")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        // Tab after `c.` offers the channel's commands.
        try pane.type("c.")
        try pane.send("Tab", "Tab")
        #expect(pane.wait { $0.screen.contains("c.finish  c.send") }, "\(pane.screen)")
        try pane.send("C-u")

        try pane.type("c | map { $0 * 10 } &")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("[1] +0.000s  subscribed") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("c.send 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 10") && $0.lastLine == "plumb>" }, "the reader did not show the value:\n\(pane.screen)")

        // Nobody reads after the job is cancelled: the send says that it waits.
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("c.send 2")
        try pane.send("Enter")
        #expect(
            pane.wait { $0.lastLine == "waiting: c.send 2 waits for a reader of 'c' (Ctrl-C gives the prompt back)" },
            "the send did not say it waits:\n\(pane.screen)")
        try pane.send("C-c")
        #expect(
            pane.wait(seconds: 30) { $0.screen.contains("cancelled: c.send 2: nobody took 2; 'c' stays open") && $0.lastLine == "plumb>" },
            "Ctrl-C did not give the prompt back:\n\(pane.screen)")
        #expect(pane.isAlive, "Ctrl-C killed the shell")
        // Up recalls the send; the bindings survive: a new reader takes the next send.
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> c.send 2" }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.type("c | map { $0 + 100 } &")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("[2] +0.000s  subscribed") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("c.send 3")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 103") && $0.lastLine == "plumb>" }, "\(pane.screen)")

        try pane.type("c.finish")
        try pane.send("Enter")
        #expect(
            pane.wait { $0.screen.split(separator: "\n").contains { $0.hasPrefix("[2]") && $0.contains("finished") } && $0.lastLine == "plumb>" },
            "finish did not end the reader:\n\(pane.screen)")
        try pane.type("c.send 4")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("error[E334]: channel 'c' is finished") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
