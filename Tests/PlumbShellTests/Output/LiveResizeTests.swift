import Foundation
import PlumbDiagrams
import Testing

/// Resizing the terminal while a live diagram is drawn: the diagram re-fits, no stale copy stays
/// on the screen or in the scrollback, and no event line is lost.
@Suite(.serialized) struct LiveResizeTests {
    @Test(
        "narrowing and widening the window during a run re-fits the live diagram without stale copies or lost events",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func resizeDuringRun() throws {
        let binary = try #require(PlumbBinary.url)
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary)
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "\(pane.screen)")
        try pane.type("interval 100ms | take 30 | map { $0 * 2 } | filter { $0 >= 0 }")
        try pane.send("Enter")
        // Once the live rows are wider than the narrower window will be.
        #expect(pane.wait(seconds: 10) { $0.screen.contains("[3] filter") && $0.screen.contains("value 30") }, "\(pane.screen)")
        try pane.run(["resize-window", "-t", pane.name, "-x", "40"])
        #expect(pane.wait(seconds: 10) { $0.screen.contains("value 40") }, "\(pane.screen)")
        try pane.run(["resize-window", "-t", pane.name, "-x", "90"])
        #expect(pane.wait(seconds: 30) { $0.screen.contains("finished") && $0.lastLine == "plumb>" }, "\(pane.screen)")
        let all = try pane.run(["capture-pane", "-p", "-J", "-t", pane.name, "-S", "-2000"]).output
        // Between the command and `finished` only event lines: no stale piece of a live diagram.
        let rows = all.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let command = try #require(rows.firstIndex { $0.contains("plumb> interval 100ms") }, "\(all)")
        let finished = try #require(rows.firstIndex { $0.contains("finished") }, "\(all)")
        let stale = rows[(command + 1)..<finished].filter { !$0.hasPrefix("  +") }
        #expect(stale.isEmpty, "stale rows \(stale):\n\(all)")
        // One diagram (the final one): each lane's row once; every value once, in order.
        for lane in 0...3 { #expect(rows.filter { $0.hasPrefix("[\(lane)] ") }.count == 1, "lane \(lane):\n\(all)") }
        let values = all.split(separator: "\n").filter { $0.contains("  value ") }.compactMap { Int($0.split(separator: " ").last ?? "") }
        #expect(values == Array(stride(from: 0, to: 60, by: 2)), "\(all)")
    }

    @Test("the rows a diagram takes: each line rewrapped at the new width, colour codes take none")
    func rows() {
        let lines = ["[0] interval 100ms      ^-0-1-2-(3!)", "\u{1B}[2m1 column = 50 ms\u{1B}[0m", ""]
        #expect(TerminalRows.width(of: lines[1]) == 16)
        #expect(TerminalRows.count(lines, columns: 80) == 3)
        #expect(TerminalRows.count(lines, columns: 20) == 2 + 1 + 1)
        #expect(TerminalRows.count(lines, columns: 16) == 3 + 1 + 1)
        #expect(TerminalRows.count(["界界"], columns: 3) == 2)
    }
}
