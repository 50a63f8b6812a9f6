import Foundation
import Testing

@testable import PlumbShell

/// `:edit` (psql's `\e`): the last statement, or job N's, in `$EDITOR`; run when changed.
@Suite(.serialized) struct EditTests {
    /// An executable shell script standing in for the editor.
    private func editor(_ body: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-editor-\(UUID().uuidString).sh").path
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    @Test("a multi-line edit is one statement: lines joined, blank and comment lines left out")
    func oneStatement() {
        #expect(StatementEditor.oneStatement("just 3 |\n  map { $0 + 1 }\n\n# why\n") == "just 3 | map { $0 + 1 }")
        #expect(StatementEditor.oneStatement("\n  \n").isEmpty)
    }

    @Test(
        "at the keyboard: :edit runs the line the editor rewrote and puts it in the history; unchanged runs nothing; :edit N edits job N's",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func editAtTheKeyboard() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let rewrite = try editor("sed -i 's/10/100/' \"$1\"")
        defer { unlink(rewrite) }
        let pane = try TerminalTests.Pane(
            tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"], environment: ["EDITOR": rewrite, "VISUAL": nil])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("from [1, 2] | map { $0 * 10 }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 20") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":edit")
        try pane.send("Enter")
        #expect(
            pane.wait { $0.screen.contains("plumb> from [1, 2] | map { $0 * 100 }\n  +0.000s  subscribed\n  +0.000s  value 100\n  +0.000s  value 200") },
            "\(pane.screen)")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.send("Up")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 2] | map { $0 * 100 }" }, "the edit is not in the history:\n\(pane.screen)")
        try pane.send("C-u")
        // Job 1's text: `10` in it becomes `100` too, and the edit runs (in the foreground).
        try pane.type("let s = subject")
        try pane.send("Enter")
        try pane.type("s | map { $0 + 10 } &")
        try pane.send("Enter")
        try pane.type(":edit 1")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("plumb> s | map { $0 + 100 }") }, "\(pane.screen)")
        try pane.send("C-c")
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":edit 7")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("error[E703]: no job 7") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "the edited line is echoed with its control characters as pictures: an editor's ESC cannot clear the screen",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func editEchoIsTerminalSafe() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        // The editor writes a line with ESC [2J (clear the screen) and BEL in a string.
        let rewrite = try editor("printf 'just \"a\\033[2J\\007b\"\\n' > \"$1\"")
        defer { unlink(rewrite) }
        let pane = try TerminalTests.Pane(
            tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"], environment: ["EDITOR": rewrite, "VISUAL": nil])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("just 7")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 7") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        try pane.type(":edit")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("plumb> just \"a␛[2J␇b\"") }, "the echo is not terminal-safe:\n\(pane.screen)")
        // The screen was not cleared: the first run is still on it.
        #expect(pane.screen.contains("value 7"), "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }

    @Test(
        "an editor that changes nothing runs nothing; one that fails says so and runs nothing",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func unchangedAndFailing() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(
            tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"], environment: ["EDITOR": "true", "VISUAL": nil])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type(":edit")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("error[E737]: nothing typed yet to edit") }, "\(pane.screen)")
        try pane.type("just 1")
        try pane.send("Enter")
        try pane.type(":edit")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("unchanged: nothing run") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive })

        let failing = try TerminalTests.Pane(
            tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"], environment: ["EDITOR": "false", "VISUAL": nil])
        #expect(failing.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(failing.screen)")
        try failing.type("just 1")
        try failing.send("Enter")
        try failing.type(":edit")
        try failing.send("Enter")
        #expect(failing.wait { $0.screen.contains("error[E735]: the editor 'false' exited with status 1; nothing run") }, "\(failing.screen)")
        try failing.send("C-d")
        #expect(failing.wait { !$0.isAlive })
    }
}
