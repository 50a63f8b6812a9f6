import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `:watch FILE`: the script run on every save, each pipeline's diagram and what changed.
@Suite(.serialized) struct WatchTests {
    private func record(_ timeline: [(Int64, MarbleNotation.Token)], _ termination: Termination = .finished) -> RunRecord {
        var record = RunRecord()
        record.timeline = timeline
        record.termination = termination
        return record
    }

    @Test("what changed is the expect marbles diff of the last save's run against this one, in frames that divide every time")
    func changes() {
        let style = Style(enabled: false)
        let old = record([(250_000_000, .value(.string("a"))), (600_000_000, .finished)])
        let new = record([(150_000_000, .value(.string("a"))), (600_000_000, .finished)])
        let lines = ScriptWatch.changes(from: old, to: new, textChanged: true, style: style)
        #expect(lines.first == "changed since the last save (expected: the last save, actual: this one; 1 frame = 50ms)")
        #expect(lines.contains("  expected -----a------|"), "\(lines)")
        #expect(lines.contains("  actual   ---a--------|"), "\(lines)")
        #expect(lines.contains("  frame 3 (150ms): expected no event, got a"), "\(lines)")
        #expect(ScriptWatch.changes(from: old, to: old, textChanged: false, style: style) == ["unchanged since the last save"])
        #expect(ScriptWatch.changes(from: old, to: old, textChanged: true, style: style) == ["the same events as at the last save"])
    }

    @Test("a save is told by modification time, size or inode; a missing file has no stamp")
    func stamps() throws {
        let path = try PlumbBinary.script("just 1\n")
        let first = try #require(ScriptWatch.fileStamp(path))
        try Data("just 12\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(ScriptWatch.fileStamp(path) != first)
        #expect(ScriptWatch.fileStamp(path + ".gone") == nil)
    }

    @Test(
        "at the keyboard: :watch runs the script, runs it again on a save with the diagram and the diff, and Ctrl-C ends it",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func watchAtTheKeyboard() throws {
        let path = try PlumbBinary.script("marble \"-a-b-c|\" | debounce 150ms\njust 1 | map { $0 * 2 }\n", name: "w")
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type(":watch \(path)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("watching") && $0.screen.contains("[1] debounce 150ms     ^----a---b--|") }, "\(pane.screen)")
        #expect(pane.screen.contains("run 1 ──"))
        try Data("marble \"-a-b-c|\" | debounce 50ms\njust 1 | map { $0 * 2 }\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(pane.wait { $0.screen.contains("run 2 ──") && $0.screen.components(separatedBy: "watching").count == 3 }, "\(pane.screen)")
        let screen = pane.screen
        #expect(screen.contains("[1] debounce 50ms      ^-----a-------b-------c-|"), "\(screen)")
        #expect(screen.contains("changed since the last save"), "\(screen)")
        #expect(screen.contains("  frame 3 (150ms): expected no event, got a"), "\(screen)")
        #expect(screen.contains("unchanged since the last save"), "the second pipeline did not change:\n\(screen)")
        try pane.send("C-c")
        #expect(pane.wait { $0.screen.contains("stopped watching") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type("just 5")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 5") }, "the prompt does not work after the watch:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
