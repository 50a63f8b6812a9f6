import Foundation
import Testing

/// A fix-it offered at the prompt, never typed into the line: dimmed after what the person types
/// (colour on), taken with → or Tab; one Up away in the history without colour.
@Suite(.serialized) struct FixOfferPromptTests {
    static let tmux = TerminalTests.tmux

    /// The pane's last line with its attributes (`capture-pane -e`): dim text shows as `ESC[2m`.
    private func styledLastLine(_ pane: TerminalTests.Pane) -> String {
        let output = (try? pane.run(["capture-pane", "-p", "-e", "-t", pane.name]).output) ?? ""
        return output.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
    }

    /// Whether `text` is drawn dim on `line` (tmux writes SGR 2 as `ESC[2m` or `ESC[0;2m`, then colours).
    private func isDim(_ line: String, _ text: String) -> Bool {
        guard let range = line.range(of: text) else { return false }
        let before = line[..<range.lowerBound]
        return before.contains("\u{1B}[2m") || before.contains(";2m")
    }

    @Test(
        "just \"abc offers just \"abc\": typing just 2 runs just 2 alone; → takes the offer, Tab too; Enter on an empty line runs nothing",
        .enabled(if: tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func offerIsNotTyped() throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: Self.tmux!, binary: binary, arguments: ["--clock", "virtual"], environment: ["NO_COLOR": nil])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        try pane.type("just \"abc")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("fix: just \"abc\"  (→ or Tab takes it; Enter runs what you type)") }, "no offer:\n\(pane.screen)")
        // Shown dimmed on the prompt, not typed.
        #expect(
            pane.wait { $0.lastLine == "plumb> just \"abc\"" && isDim(styledLastLine($0), "just \"abc\"") },
            "\(styledLastLine(pane).debugDescription)")
        // Typing something else: the offer goes as soon as the text is not how it begins, and
        // what runs is what was typed.
        try pane.type("just 2")
        #expect(pane.wait { $0.lastLine == "plumb> just 2" }, "the offer stayed on the line:\n\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 2") && $0.lastLine == "plumb>" }, "the typed line did not run alone:\n\(pane.screen)")
        #expect(!pane.screen.contains("too many arguments") && !pane.screen.contains("just \"abc\"just 2"), "\(pane.screen)")

        // → takes it (also after typing its beginning), and Enter runs it.
        try pane.type("just \"abc")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.components(separatedBy: "fix: just \"abc\"").count == 3 }, "\(pane.screen)")
        try pane.type("just")
        #expect(pane.wait { isDim(styledLastLine($0), " \"abc\"") }, "\(styledLastLine(pane).debugDescription)")
        try pane.send("Right")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value \"abc\"") && $0.lastLine == "plumb>" }, "→ did not take the offer:\n\(pane.screen)")

        // Tab takes it too.
        try pane.type("from [1, 2] | map { $0 * 10ms }")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("fix: from [1, 2] | map { $0 * 10 }") }, "\(pane.screen)")
        try pane.send("Tab")
        #expect(pane.wait { $0.lastLine == "plumb> from [1, 2] | map { $0 * 10 }" && !styledLastLine($0).contains("2m") }, "\(pane.screen)")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("value 20") && $0.lastLine == "plumb>" }, "Tab did not take the offer:\n\(pane.screen)")

        // Enter on the untouched offer runs nothing, and no dim text stays behind.
        try pane.type(":jbos")
        try pane.send("Enter")
        #expect(pane.wait { $0.screen.contains("fix: :jobs") }, "\(pane.screen)")
        try pane.send("Enter")
        usleep(300_000)
        #expect(pane.wait { $0.lastLine == "plumb>" }, "\(pane.screen)")
        #expect(!pane.screen.contains("plumb> :jobs") && !pane.screen.contains("no background jobs"), "the offer ran or stayed on the line:\n\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
    }
}
