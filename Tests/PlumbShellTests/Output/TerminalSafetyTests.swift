import Foundation
import Testing

/// Nothing a program prints can drive the terminal: control characters in fail messages, print
/// labels and handleEvents texts are shown as pictures (␛), and `plumb > log.txt` at a terminal
/// writes no prompt, echo or terminal codes into the file.
@Suite(.serialized) struct TerminalSafetyTests {
    @Test("fail, print and handleEvents texts with escape sequences reach the output without a single ESC byte")
    func noRawEscapes() throws {
        let script = try PlumbBinary.script(
            "fail \"\\u{1B}[?1049h\\u{1B}[?25l boom\"\njust 1 | print \"x\\u{1B}[31m\"\n"
                + "just 1 | handleEvents receiveOutput: \"a\\u{7}b\\nc\"\nfail \"\\u{9B}2J\"\nexpect failed \"zzz\"\n")
        for format in [["--marbles"], []] {
            let result = try PlumbBinary.run(["--clock", "virtual", "run"] + format + [script])
            let bytes = result.stdoutData + Data(result.stderr.utf8)
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(result)")
            #expect(!result.stdout.utf8.contains(where: { $0 == 0xC2 }) || !result.stdout.contains("\u{9B}"), "\(result)")
            #expect(result.stdout.contains("failed: ␛[?1049h␛[?25l boom"), "\(result)")
            #expect(result.stdout.contains("x␛[31m: receive value: (1)"), "\(result)")
            #expect(result.stdout.contains("▸ a␇b␊c"), "\(result)")
        }
    }

    @Test(
        "plumb > log.txt at a terminal: statements are read as from a pipe; the file has only the events",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed"))
    func redirectedOutput() throws {
        let binary = try #require(PlumbBinary.url)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-log-\(UUID().uuidString).txt").path
        defer { unlink(log) }
        // A shell in the pane runs plumb with its output redirected, as a learner would type it.
        let shell = try TerminalTests.Pane(
            tmux: TerminalTests.tmux!, binary: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "'\(binary.path) --clock virtual > \(log)'"])
        usleep(500_000)
        try shell.type("just 41 | map { $0 + 1 }")
        try shell.send("Enter")
        usleep(300_000)
        try shell.send("C-d")
        #expect(shell.wait { !$0.isAlive }, "\(shell.screen)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("value 42"), "\(text)")
        #expect(!text.contains("plumb>") && !text.utf8.contains(0x1B), "\(text.debugDescription)")
    }
}
