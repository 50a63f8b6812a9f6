import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10's bad-input hunt, end to end: every read reports its error, a script that loads
/// itself is refused, output that cannot be written ends plumb, and odd arguments are usage errors.
@Suite struct ReadingInputTests {
    @Test("run - with a closed standard input: 'cannot read standard input: it is closed', exit 2 (no trap)")
    func runClosedStandardInput() throws {
        let result = try PlumbBinary.shell(#""$PLUMB" run - <&-"#)
        #expect(result.status == 2 && !result.endedBySignal, "\(result)")
        #expect(
            result.stderr == "plumb: error[E710]: cannot read standard input: it is closed\nfor more about this error, run `plumb help E710`\n", "\(result)")
    }

    @Test("run - with a directory on standard input: 'is a directory', exit 2 (no trap)")
    func runDirectoryStandardInput() throws {
        let result = try PlumbBinary.shell(#""$PLUMB" run - < "$PWD""#, directory: PlumbBinary.packageRoot)
        #expect(result.status == 2 && !result.endedBySignal, "\(result)")
        #expect(
            result.stderr == "plumb: error[E710]: cannot read standard input: is a directory\nfor more about this error, run `plumb help E710`\n", "\(result)")
    }

    @Test("statements from a closed or directory standard input: the reason, exit 2", arguments: ["<&-", #"< "$PWD""#])
    func streamModeUnreadable(redirection: String) throws {
        let result = try PlumbBinary.shell(#""$PLUMB" "# + redirection, directory: PlumbBinary.packageRoot)
        #expect(result.status == 2 && !result.endedBySignal, "\(result)")
        #expect(result.stderr.hasPrefix("plumb: error[E712]: cannot read standard input: "), "\(result)")
    }

    @Test(
        "a script from a process substitution, /dev/stdin or a FIFO is read as a stream",
        arguments: [
            #""$PLUMB" --clock virtual run <(echo 'just 1')"#,
            #"echo 'just 1' | "$PLUMB" --clock virtual run /dev/stdin"#,
            #"f="$(mktemp -u)"; mkfifo "$f"; (echo 'just 1' > "$f" &); "$PLUMB" --clock virtual run "$f"; s=$?; rm -f "$f"; exit $s"#,
        ])
    func nonRegularFiles(script: String) throws {
        let result = try PlumbBinary.shell(script)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  +0.000s  value 1\n"), "\(result)")
    }

    @Test("a non-blocking standard input (a parent's O_NONBLOCK) is waited on, not taken for its end", arguments: [[], ["run", "-"]])
    func nonBlockingStandardInput(arguments: [String]) throws {
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let input = Pipe()
        let output = Pipe()
        let readEnd = input.fileHandleForReading.fileDescriptor
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--clock", "virtual"] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(300_000)
        // A plumb that already died must fail the test, not kill the test process by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data("just 1\n".utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("value 1\n"), "\(printed)")
    }

    @Test("run DIRECTORY: 'is a directory', exit 2")
    func runDirectory() throws {
        let result = try PlumbBinary.run(["run", PlumbBinary.packageRoot.appendingPathComponent("Examples").path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasSuffix("Examples: is a directory\nfor more about this error, run `plumb help E710`\n"), "\(result)")
    }

    @Test("an unreadable script: 'permission denied', exit 2")
    func runUnreadable() throws {
        let path = try PlumbBinary.script("just 1\n")
        chmod(path, 0)
        // Root reads any file, so as root plumb runs as `nobody` (setpriv drops the privileges
        // in the child; the script's folder and the binary's are open to others).
        let result =
            getuid() == 0
            ? try PlumbBinary.shell("exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$PLUMB\" check '\(path)'")
            : try PlumbBinary.run(["check", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "plumb: error[E710]: cannot read \(path): permission denied\nfor more about this error, run `plumb help E710`\n", "\(result)")
    }

    @Test("a script that is not UTF-8: 'not UTF-8 at byte N (line L)', exit 2")
    func runInvalidUTF8() throws {
        let path = try PlumbBinary.script("")
        try Data("just 1\njust ".utf8 + [0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        let result = try PlumbBinary.run(["run", path])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == "plumb: error[E710]: cannot read \(path): not UTF-8 at byte 13 (line 2)\nfor more about this error, run `plumb help E710`\n",
            "\(result)")
    }

    @Test("a line of standard input that is not UTF-8: one error with its line (no cascade), the next lines still run, exit 65")
    func streamInvalidUTF8Line() throws {
        let result = try PlumbBinary.shell(#"printf 'just 1\njust \xff\njust 2\n' | "$PLUMB" --clock virtual"#)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr == "<stdin>:2: error[E711]: not UTF-8 at byte 6 of the line\nfor more about this error, run `plumb help E711`\n", "\(result)")
        #expect(result.stdout.contains("value 1\n") && result.stdout.contains("value 2\n"), "\(result)")
    }

    @Test("an endless stream (/dev/zero) as a script: 'larger than 64 MB', exit 2, memory not filled")
    func endlessScript() throws {
        let result = try PlumbBinary.run(["run", "/dev/zero"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == "plumb: error[E710]: cannot read /dev/zero: larger than 64 MB\nfor more about this error, run `plumb help E710`\n", "\(result)")
    }

    @Test("a line of standard input over 64 MB is reported and skipped; the next line runs")
    func overlongLine() throws {
        let result = try PlumbBinary.shell(#"(head -c 70000000 /dev/zero | tr '\0' x; printf '\njust 1\n') | "$PLUMB" --clock virtual"#)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr == "<stdin>:1: error[E711]: the line is longer than 64 MB\nfor more about this error, run `plumb help E711`\n", "\(result)")
        #expect(result.stdout.contains("value 1\n"), "\(result)")
    }

    @Test(":load of a directory or a missing file: the reason, and the session goes on")
    func loadUnreadable() throws {
        let result = try PlumbBinary.run(
            ["--clock", "virtual"], input: ":load /\n:load /nonexistent.pipe\njust 5\n")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("<stdin>:1: error[E710]: cannot read /: is a directory\n"), "\(result)")
        #expect(result.stderr.contains("<stdin>:2: error[E710]: cannot read /nonexistent.pipe: no such file\n"), "\(result)")
        #expect(result.stdout.contains("value 5\n"), "\(result)")
    }
}

@Suite struct LoadStackTests {
    @Test("a script that :loads itself is refused with the chain of files, no crash")
    func loadsItself() throws {
        let folder = try PlumbBinary.folder(["self.pipe": ":load self.pipe\njust 1\n"])
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "self.pipe"], directory: URL(fileURLWithPath: folder))
        #expect(!result.endedBySignal, "\(result)")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("self.pipe:1: error[E705]: :load cycle: self.pipe → self.pipe"), "\(result)")
    }

    @Test("two scripts loading each other: the error names the chain; what ran before it stays")
    func loadEachOther() throws {
        let folder = try PlumbBinary.folder(["a.pipe": "just 1\n:load b.pipe\n", "b.pipe": "just 2\n:load ./a.pipe\n"])
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "a.pipe"], directory: URL(fileURLWithPath: folder))
        #expect(!result.endedBySignal, "\(result)")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("b.pipe:2: error[E705]: :load cycle: a.pipe → b.pipe → ./a.pipe"), "\(result)")
        #expect(result.stdout.contains("value 1\n") && result.stdout.contains("value 2\n"), "\(result)")
    }

    @Test("loads nested deeper than 32 scripts are refused with the chain")
    func loadTooDeep() throws {
        var files: [String: String] = [:]
        for i in 0..<40 { files["s\(i).pipe"] = ":load s\(i + 1).pipe\n" }
        files["s40.pipe"] = "just 1\n"
        let folder = try PlumbBinary.folder(files)
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "s0.pipe"], directory: URL(fileURLWithPath: folder))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("s31.pipe:1: error[E706]: :load nests more than 32 scripts deep: s0.pipe → s1.pipe"), "\(result)")
        #expect(!result.stdout.contains("value 1"), "\(result)")
    }

    @Test("a loaded script's :quit ends the load, not the session (stdin mode and run)", arguments: [false, true])
    func quitEndsTheLoad(fromRun: Bool) throws {
        let folder = try PlumbBinary.folder(["q.pipe": "just 1\n:quit\njust 9\n", "main.pipe": ":load q.pipe\njust 3\n"])
        let result =
            fromRun
            ? try PlumbBinary.run(["--clock", "virtual", "run", "main.pipe"], directory: URL(fileURLWithPath: folder))
            : try PlumbBinary.run(["--clock", "virtual"], input: ":load q.pipe\njust 3\n", directory: URL(fileURLWithPath: folder))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("value 1\n"), "\(result)")
        #expect(!result.stdout.contains("value 9\n"), "the rest of the loaded script ran: \(result)")
        #expect(result.stdout.contains("value 3\n"), "the session ended with the load: \(result)")
    }
}

@Suite struct OutputFailureTests {
    @Test("run of a 10-million-value script into head -1: stops at once, status 141, nothing on stderr")
    func closedPipeStopsASynchronousSource() throws {
        // Status 141 is the closed pipe ending plumb; a plumb that ran on through the 10 million
        // values without writing would end with 0, or hit the shell's limit, which only catches a hang.
        let result = try PlumbBinary.shell(
            #"echo 'from 1...10000000' > "${TMPDIR:-/tmp}/big-$$.pipe"; "$PLUMB" run "${TMPDIR:-/tmp}/big-$$.pipe" | head -1; exit ${PIPESTATUS[0]}"#,
            within: 60)
        #expect(result.status == 141, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("interval 1ms | sink into head -1 ends with status 141")
    func closedPipeEndsAnInterval() throws {
        let result = try PlumbBinary.shell(#"echo 'interval 1ms | sink' | "$PLUMB" | head -1; exit ${PIPESTATUS[1]}"#, within: 20)
        #expect(result.status == 141, "\(result)")
    }

    @Test("a background job writing into a closed pipe ends plumb while it waits for more statements: status 141")
    func closedPipeWhileReading() throws {
        // Standard input stays open until plumb has ended (its writer then waits on a second FIFO
        // for up to ten minutes): a plumb that waited for more input after its output had gone
        // would hit the shell's limit, which only catches that hang.
        let result = try PlumbBinary.shell(
            #"""
            input="${TMPDIR:-/tmp}/plumb-input-$$"; ended="${TMPDIR:-/tmp}/plumb-ended-$$"
            mkfifo "$input" "$ended"
            { echo 'interval 1ms | sink &'; read -r -t 600 _ < "$ended"; } > "$input" 2>/dev/null &
            { "$PLUMB" < "$input"; echo "status=$?" >&2; } | head -1
            echo > "$ended"; wait; rm -f "$input" "$ended"
            """#, within: 60)
        let report = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("status=") }, "\(result)")
        #expect(report == "status=141", "plumb waited for input after its output had gone: \(result)")
    }

    @Test(
        "output to a full device or a closed stdout: the pipeline is cancelled, exit 1 with one line on stderr",
        arguments: [
            (">/dev/full", "no space left on device"), (">&-", "bad file descriptor"),
        ])
    func failedWriteEnds(redirection: String, reason: String) throws {
        let result = try PlumbBinary.shell(#"echo 'interval 1ms | sink' | "$PLUMB" "# + redirection, within: 20)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr == "plumb: error[E715]: cannot write to standard output: \(reason)\nfor more about this error, run `plumb help E715`\n", "\(result)")
    }

    @Test("few open files: a low soft limit is raised and the run works; a hard limit under 64 is an error, exit 1 (no trap, no hang)", .timeLimit(.minutes(1)))
    func fewDescriptors() throws {
        let raised = try PlumbBinary.shell(#"ulimit -S -n 8; echo 'interval 10ms | take 2' | "$PLUMB""#, within: 20)
        #expect(raised.status == 0 && raised.stdout.contains("value 1\n"), "\(raised)")
        let refused = try PlumbBinary.shell(#"ulimit -n 12; echo 'interval 10ms | take 2' | "$PLUMB""#, within: 20)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr
                == "plumb: error[E721]: plumb needs at least 64 open files, and the limit is 12 (ulimit -n)\nfor more about this error, run `plumb help E721`\n",
            "\(refused)")
    }

    @Test("--help and --version into a full device fail: exit 1 and a message", arguments: ["--help", "--version", "help run"])
    func helpIntoFullDevice(arguments: String) throws {
        let result = try PlumbBinary.shell(#""$PLUMB" "# + arguments + " >/dev/full")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr == "plumb: error[E715]: cannot write to standard output: no space left on device\nfor more about this error, run `plumb help E715`\n",
            "\(result)")
    }

    @Test("--version with an operand is a usage error, exit 2")
    func versionWithOperand() throws {
        let result = try PlumbBinary.run(["--version", "extra"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("plumb: error[E720]: --version takes no operands, not 'extra'\n"), "\(result)")
    }
}

@Suite struct DiagnosticSizeTests {
    @Test("a 1 MB identifier gives a diagnostic a few lines long: the quoted name and the source line are cut")
    func hugeIdentifier() throws {
        let name = String(repeating: "x", count: 1_000_000)
        let path = try PlumbBinary.script("just 1 | \(name)\n")
        let result = try PlumbBinary.run(["check", path])
        #expect(result.status == 65, "exit \(result.status)")
        #expect(result.stderr.utf8.count < 1_000, "the diagnostic is \(result.stderr.utf8.count) bytes")
        #expect(
            result.stderr.contains("error[E302]: unknown operator '\(String(repeating: "x", count: 39))…\(String(repeating: "x", count: 19))'"),
            "\(result.stderr.prefix(500))")
    }

    @Test("a huge command-line word, :command or :load path gives a short error")
    func hugeWordsElsewhere() throws {
        let huge = String(repeating: "z", count: 100_000)
        let usage = try PlumbBinary.run([huge])
        #expect(usage.status == 2 && usage.stderr.utf8.count < 500, "\(usage.stderr.utf8.count) bytes")
        let commands = try PlumbBinary.run([], input: ":\(huge)\n:load \(huge)\n")
        #expect(commands.status == 65 && commands.stderr.utf8.count < 500, "\(commands.stderr.utf8.count) bytes")
        #expect(commands.stderr.contains("file name too long"), "\(commands.stderr.prefix(500))")
    }

    @Test("a character the lexer rejects gives one error, not a cascade (PipeLanguage: issue 10, item 15)")
    func rejectedCharacterGivesOneError() throws {
        let path = try PlumbBinary.script("just €\n")
        let result = try PlumbBinary.run(["check", path])
        #expect(result.status == 65, "\(result)")
        // The lexer reports the character; the statement is not checked without it.
        #expect(result.stderr.components(separatedBy: "error[").count - 1 == 1, "\(result)")
    }
}
