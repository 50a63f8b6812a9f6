import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `:save FILE`: the session as a script whose `expect` lines are what its runs did, so that
/// `plumb test FILE` passes on it at once.
@Suite struct SaveTests {
    private func savedPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("plumb-saved-\(UUID().uuidString).pipe").path
    }

    @Test("a session's bindings, sends, jobs and runs are saved in order, each run followed by expect values and expect marbles")
    func savedScript() throws {
        let path = savedPath()
        defer { unlink(path) }
        let session = """
            let s = subject
            s | map { $0 * 2 } | sink &
            s.send 1
            marble "-a-b-c|" | debounce 150ms
            expect count 2
            expect count 3
            just 1 | map { $0 / 0 }
            :save \(path)
            """
        let result = try PlumbBinary.run(["--clock", "virtual"], input: session + "\n")
        #expect(result.stdout.contains("wrote \(path): plumb test \(path) checks it"), "\(result)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            saved.hasSuffix(
                """
                let s = subject
                s | map { $0 * 2 } | sink &
                s.send 1
                marble "-a-b-c|" | debounce 150ms
                expect values ["a", "b"]
                expect marbles "-----a---b--|" frame: 50ms
                expect count 2
                just 1 | map { $0 / 0 }
                expect values []
                expect failed "division by zero: 1 / 0"
                expect marbles "#"

                """), "the expect that failed is not saved:\n\(saved)")
        let test = try PlumbBinary.run(["test", path])
        #expect(test.status == 0, "\(test)")
        #expect(test.stdout.contains("1 passed, 0 failed"), "\(test)")
    }

    @Test("a stepped run is saved as its commands and sends, then the expect lines of how it ended; plumb test replays it")
    func savedSteps() throws {
        let path = savedPath()
        defer { unlink(path) }
        let session = """
            let s = subject
            :step s | debounce 100ms
            s.send 3
            :next
            s.send 4
            :advance 150ms
            :stop
            :save \(path)
            """
        _ = try PlumbBinary.run(["--clock", "virtual"], input: session + "\n")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            saved.hasSuffix(
                """
                :step s | debounce 100ms
                s.send 3
                :next
                s.send 4
                :advance 150ms
                :stop
                expect values [3, 4]
                expect marbles "-34"

                """), "\(saved)")
        let test = try PlumbBinary.run(["test", path])
        #expect(test.status == 0, "\(test)")
    }

    @Test(
        "a saved stepped session still passes after an edit that ends its run sooner: its later :next, :continue and :stop say the run ended (exit 0, not 65)"
    )
    func savedStepsAfterEdit() throws {
        // Saved from `:step marble "-a-b|"`, then edited to a run with one value less.
        let path = try PlumbBinary.script(
            """
            :step marble "-a|"
            :next
            :next
            :next
            :continue
            :stop
            expect values ["a"]
            """, name: "edited")
        let result = try PlumbBinary.run(["--clock", "virtual", "test", path])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("error"), "\(result)")
        let run = try PlumbBinary.run(["--clock", "virtual", "run", path])
        #expect(run.stdout.contains(":continue: no paused run, the stepped run ended at 200 ms; nothing to do"), "\(run)")
        // Before any stepped run, a time command is still an error that stops the script.
        let bare = try PlumbBinary.script(":continue\njust 1", name: "bare")
        #expect(try PlumbBinary.run(["--clock", "virtual", "run", bare]).status == 65)
    }

    @Test("a run on the real clock is saved with expect values and a comment instead of expect marbles")
    func realClock() {
        var record = RunRecord()
        record.values = [.int(1)]
        record.count = 1
        record.termination = .finished
        record.timeline = [(10_300_000, .value(.int(1))), (10_300_000, .finished)]
        #expect(
            SessionLog.expectations(record, clock: .real) == [
                "expect values [1]", "# no `expect marbles`: this ran on the real clock, whose times vary from run to run",
            ])
        #expect(SessionLog.expectations(record, clock: .virtual) == ["expect values [1]", "expect marbles \"-(1|)\" frame: 10300us"])
    }

    @Test("too many values for one line become expect count; a run too long to write frame by frame says so")
    func longRuns() {
        var record = RunRecord()
        record.values = (0..<2000).map { .int($0) }
        record.count = 2000
        record.termination = .finished
        record.timeline = (0..<2000).map { (Int64($0) * 1_000_000 + 1, .value(.int($0))) }
        let lines = SessionLog.expectations(record, clock: .virtual)
        #expect(lines == ["expect count 2000", "# no `expect marbles`: the run is too long to write frame by frame"])
    }

    @Test("a run stopped with Ctrl-C is kept as a comment: it would never end in a script either")
    func interrupted() {
        var log = SessionLog()
        log.append(run: "interval 1s | sink", RunRecord(), clock: .real, interrupted: true)
        #expect(log.script().hasSuffix("# stopped with Ctrl-C, so not saved as a check:\n#   interval 1s | sink\n"))
    }

    @Test(":save without a file is a usage error; an unwritable one says why")
    func badFile() throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: ":save\n:save /no/such/dir/x.pipe\n")
        #expect(result.stderr.contains("error[E702]: usage: :save FILE.pipe"), "\(result)")
        #expect(result.stderr.contains("cannot write /no/such/dir/x.pipe: the folder /no/such/dir does not exist"), "\(result)")
    }

    @Test(
        "at the keyboard: explore, :save, Ctrl-D, and plumb test passes on the saved file",
        .enabled(if: TerminalTests.tmux != nil, "tmux is not installed: skipping the pseudo-terminal test"))
    func savedFromTheKeyboard() throws {
        let path = savedPath()
        defer { unlink(path) }
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let pane = try TerminalTests.Pane(tmux: TerminalTests.tmux!, binary: binary, arguments: ["--clock", "virtual"])
        #expect(pane.wait { $0.lastLine.hasPrefix("plumb>") }, "no prompt:\n\(pane.screen)")
        for line in ["let ticks = interval 100ms | take 3", "ticks | scan 0 { $0 + $1 }", ":step ticks | throttle 150ms", ":continue"] {
            try pane.type(line)
            try pane.send("Enter")
            #expect(pane.wait { $0.lastLine == "plumb>" || $0.lastLine.hasPrefix("plumb [paused") }, "\(pane.screen)")
        }
        try pane.type(":save \(path)")
        try pane.send("Enter")
        // The line is wider than the pane: look for its end only.
        #expect(pane.wait { $0.screen.contains("checks it") }, "\(pane.screen)")
        try pane.send("C-d")
        #expect(pane.wait { !$0.isAlive }, "Ctrl-D did not exit:\n\(pane.screen)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("ticks | scan 0 { $0 + $1 }\nexpect values [0, 1, 3]\nexpect marbles \"-01(3|)\""), "\(saved)")
        let test = try PlumbBinary.run(["test", path])
        #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(test)\n\(saved)")
    }
}
