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

    /// Every place that prints a text that came from outside, each fed ESC, BEL, NUL and U+009B
    /// (a C1 CSI): what plumb was given as a `:` command's argument, a file name, a string in a
    /// script. Add a row for each new place that prints such a text. (`:edit`'s echo of the edited
    /// line needs a terminal: `EditTests.editEchoIsTerminalSafe` drives it in tmux.)
    static let printingPlaces: [(place: String, arguments: [String], input: String?, script: String?)] = [
        (":help TOPIC", [], ":help x\u{1B}[31m\u{7}\u{9B}2J\n", nil),
        (":load FILE", [], ":load x\u{1B}[31m\u{7}\u{9B}2J.pipe\n", nil),
        ("an unknown command", [], ":zz\u{1B}[31m\u{7}\u{9B}2J\n", nil),
        ("plumb help TOPIC", ["help", "x\u{1B}[31m\u{7}\u{9B}2J"], nil, nil),
        ("a value", ["run"], nil, "just \"a\\u{9B}2J\\u{1B}\\u{7}\\u{0}\" | sink\n"),
        ("an expect failed message", ["run"], nil, "fail \"x\" | sink\nexpect failed \"q\\u{1B}\\u{7}\\u{0}\\u{9B}\"\n"),
        ("its TAP report", ["test", "--report", "tap"], nil, "fail \"x\" | sink\nexpect failed \"q\\u{1B}\\u{7}\\u{0}\\u{9B}\"\n"),
        ("its FAIL line", ["test"], nil, "fail \"x\" | sink\nexpect failed \"q\\u{1B}\\u{7}\\u{0}\\u{9B}\"\n"),
        ("an invalid marble", ["run"], nil, "marble \"a\\u{1B}\\u{7}\\u{0}\\u{9B}|\" | sink\n"),
    ]

    @Test("no text from outside reaches standard output or error with a raw ESC, BEL, NUL or C1 control", arguments: 0..<printingPlaces.count)
    func everyPrintingPlace(index: Int) throws {
        let place = Self.printingPlaces[index]
        var arguments = ["--clock", "virtual"] + place.arguments
        if let script = place.script { arguments.append(try PlumbBinary.script(script)) }
        let result = try PlumbBinary.run(arguments, input: place.input)
        let bytes = result.stdoutData + Data(result.stderr.utf8)
        #expect(!bytes.isEmpty, "\(place.place): \(result)")
        for raw in [0x1B, 0x07, 0x00] as [UInt8] {
            #expect(!bytes.contains(raw), "\(place.place) printed \(raw) raw: \(result)")
        }
        #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { (0x80..<0xA0).contains($0.value) }, "\(place.place): \(result)")
    }

    @Test("a script's file name with control characters is shown as pictures in its diagnostics and FAIL line")
    func fileNameInFailLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-name-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a\u{1B}[31m\u{7}\u{9B}b.pipe")
        try Data("zz\n".utf8).write(to: file)
        let result = try PlumbBinary.run(["test", file.path])
        let bytes = result.stdoutData + Data(result.stderr.utf8)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(result)")
        #expect(result.stdout.contains("FAIL ") && result.stdout.contains("a␛[31m␇�b.pipe:1:"), "\(result)")
    }
}
