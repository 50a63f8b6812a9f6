import Foundation
import PipeLanguage
import Testing

/// Async pipelines at the keyboard (issue 39): Tab after `values |` offers the async side's
/// operators; Ctrl-C cancels an endless async pipeline and the prompt returns; a job with async
/// stages is listed and cancelled; `:compare` prints both runs.
@Suite(.serialized) struct AsyncTerminalTests {
    typealias Pane = TerminalTests.Pane

    static func pane() throws -> Pane {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try Pane(tmux: try #require(TerminalTests.tmux), binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        return pane
    }

    @Test(
        "Tab after values | completes the async side's operators only",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func sideAwareTab() throws {
        let pane = try Self.pane()
        // adjacentPairs exists only after values: one candidate, completed at once.
        try pane.type("from [1, 2, 3] | values | adj")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 2, 3] | values | adjacentPairs" }, "\(pane.screen)")
        try pane.send("C-u")
        // `re` after values: removeDuplicates is the async side's only `re…` (retry, replaceError,
        // replaceEmpty, replaceNil, reduce, receiveOn are publishers'), so Tab completes it.
        try pane.type("from [1, 1] | values | re")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 1] | values | removeDuplicates" }, "\(pane.screen)")
        try pane.send("C-u")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })
    }

    @Test(
        "Ctrl-C cancels an endless async pipeline and the prompt returns; a job with async stages is listed and cancelled",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func interruptAndJobs() throws {
        let pane = try Self.pane()
        try pane.type("interval 10ms | values | map { $0 * 2 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 10") }, "the async pipeline did not run:\n\(pane.screen)")
        try pane.send("C-c")
        // A limit that only catches a hang.
        #expect(pane.wait(seconds: 30) { $0.screen.contains("cancelled") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.isAlive, "Ctrl-C killed the shell")

        try pane.type("interval 50ms | values | debounce 10ms | sink &")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("[1] +") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":jobs")
        try pane.send("Enter")
        #expect(
            pane.wait { $0.screen.split(separator: "\n").contains { $0.hasPrefix("[1] running") && $0.contains("values | debounce 10ms") } },
            "\(pane.screen)")
        try pane.type(":cancel 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.split(separator: "\n").contains { $0.hasPrefix("[1] +") && $0.contains("cancelled") } }, "\(pane.screen)")
        try pane.type(":jobs")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("no background jobs") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        ":compare at the prompt: both runs side by side, the differing line marked",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func compareAtPrompt() throws {
        let pane = try Self.pane()
        try pane.type(":compare interval 100ms | take 3 | debounce 150ms")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("differs: 1 line (marked ≠)") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(pane.screen.contains("[6] pull debounce 150ms"), "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })
    }
}
