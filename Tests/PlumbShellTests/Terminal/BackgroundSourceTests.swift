import Foundation
import Testing

/// A background job whose source emits synchronously (inside its subscription) never takes the
/// prompt: it runs off the main thread, and `:jobs` and `:cancel` reach it while it emits.
@Suite(.serialized) struct BackgroundSourceTests {
    @Test(
        "a synchronous source in the background: the prompt comes back, :jobs lists it, :cancel 1 stops it",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func quietJob() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        // `count` prints nothing until the end, which is far past this test.
        try pane.type("from 1...9000000000000000000 | count &")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.lastLine == "plumb>" }, "the prompt did not come back:\n\(pane.screen)")
        try pane.type(":jobs")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("[1] running") }, "\(pane.screen)")
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":jobs")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("no background jobs") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait(seconds: 30) { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "a synchronous source printing every value in the background: :cancel 1 typed meanwhile stops it",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func printingJob() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from 1...100000000 | sink &")
        try pane.send("Enter")
        #expect(pane.wait(seconds: 30) { $0.screen.contains("value") }, "no values:\n\(pane.screen)")
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(
            pane.wait(seconds: 30) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" },
            "the job was not cancelled:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait(seconds: 30) { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
