import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `c.send` in the statement runner (issue 39's channel): a send waits until a reader (a job)
/// takes the value, and the reader's events are what the script prints; a send nobody reads is
/// E411, never a hang; a send after `c.finish` is E334. AsyncChannel's send awaits "the
/// consumption of that value by iteration" (swift-async-algorithms' Channel guide).
@Suite struct ChannelSendTests {
    static func runner(_ output: CapturedOutput, clock: ClockMode) -> StatementRunner {
        StatementRunner(options: ShellOptions(clock: clock), out: output.sink, wake: WakePipe())
    }

    static let script = "let c = channel\nc | map { $0 * 10 } &\nc.send 1\nc.send 2\nc.finish\n"

    @Test("on the virtual clock a job reading the channel prints each value sent, at the send's instant, and finishes with finish")
    func virtualReader() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        #expect(runner.run(text: Self.script, file: "c.pipe") == .ok)
        let report = runner.finish()
        #expect(report.exitCode == ExitCode.success)
        #expect(
            output.text == """
                [1] c | map { $0 * 10 }
                [1] +0.000s  subscribed
                [1] +0.000s  value 10
                [1] +0.000s  value 20
                [1] +0.000s  finished                2 values in 0 ms

                """, "\(output.text)")
    }

    // The real clock's sends wait on tasks of the global executor: run by the built plumb, so a
    // test thread of the cooperative pool never blocks on them.

    @Test("on the real clock too: each send returns once the job took it; the values come in order")
    func realReader() throws {
        let result = try PlumbBinary.run(["run", try PlumbBinary.script(Self.script)])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        // The times vary; the events do not.
        let events = lines.filter { $0.count >= 3 && $0[0] == "[1]" && $0[1].hasPrefix("+") }.map { $0.dropFirst(2).prefix(2).joined(separator: " ") }
        #expect(events == ["subscribed", "value 10", "value 20", "finished 2"], "\(result)")
    }

    @Test("a send nobody reads is E411 at once in a script, on either clock, and the script stops there", arguments: ["virtual", "real"])
    func noReader(clock: String) throws {
        let result = try PlumbBinary.run(["--clock", clock, "run", try PlumbBinary.script("let c = channel\nc.send 1\njust 2\n")])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(":2:1: error[E411]: nobody took 1 from channel 'c': no pipeline reads it"), "\(result)")
        #expect(!result.stdout.contains("value 2"), "the script went on: \(result)")
    }

    @Test("a reader that ended (take 1) reads no more: the next send is E411, not a hang", arguments: ["virtual", "real"])
    func readerEnded(clock: String) throws {
        let result = try PlumbBinary.run(["--clock", clock, "run", try PlumbBinary.script("let c = channel\nc | take 1 &\nc.send 1\nc.send 2\n")])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(":4:1: error[E411]: nobody took 2 from channel 'c': no pipeline reads it"), "\(result)")
        #expect(result.stdout.contains("value 1"), "\(result)")
    }

    @Test("on the virtual clock a send drives time until a reader takes it: zip takes its next value when the interval ticks")
    func virtualSendDrivesTime() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        let text = "let c = channel\nc | zip (interval 10s) | publisher &\nc.send 1\nc.send 2\nc.finish\n"
        #expect(runner.run(text: text, file: "c.pipe") == .ok)
        _ = runner.finish()
        // 1 is taken at once; zip pulls c again after it emitted [1, 0] at 10 s, and takes 2 then
        // (its pair waits for the tick at 20 s, past the script's end, which cancels the job).
        #expect(output.text.contains("[1] +10.000s  value [1, 0]\n[1] +10.000s  cancelled"), "\(output.text)")
    }

    @Test("a reader that never pulls again (zip with never) is E411 once nothing more can happen on the virtual clock")
    func virtualReaderNeverPulls() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        let text = "let c = channel\nc | zip (never) | publisher &\nc.send 1\nc.send 2\njust 3\n"
        #expect(runner.run(text: text, file: "c.pipe") == .compileErrors, "\(output.text)")
        let report = runner.finish()
        #expect(report.firstError?.id?.code == "E411", "\(String(describing: report.firstError))")
        #expect(report.firstError?.location.line == 4)
        #expect(
            report.firstError?.message
                == "nobody took 2 from channel 'c': its readers took nothing more before nothing more could happen on the virtual clock")
        #expect(!output.text.contains("value 3"), "\(output.text)")
    }

    @Test("a send after finish is E334 and nothing of the script runs")
    func afterFinish() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        #expect(runner.run(text: "let c = channel\nc | sink &\nc.finish\nc.send 1\n", file: "c.pipe") == .compileErrors)
        #expect(runner.finish().firstError?.id?.code == "E334")
        #expect(output.text.isEmpty, "\(output.text)")
    }

    @Test(":compare on a channel's reader says a channel has no publisher twin (E410), at its name")
    func compareRefuses() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        #expect(runner.run(text: "let c = channel\n", file: "c.pipe") == .ok)
        guard case .failure(let d) = runner.session.comparisonPlan(of: "c | map { $0 }") else {
            Issue.record("compared a channel")
            return
        }
        #expect(d.id.code == "E410")
        #expect(d.message == "'c' is an async sequence with no publisher twin, so :compare cannot run it as a publisher")
        #expect(d.location.column == 1)
    }

    @Test(
        "while :step holds a run paused, a send settles the current instant and never moves time; a send nobody reads is E411 and the pause stays"
    )
    func sendWhilePaused() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        #expect(runner.run(text: "let c = channel\nlet t = channel\n:step c | map { $0 * 2 }\nc.send 5\n", file: "c.pipe") == .ok, "\(output.text)")
        #expect(runner.pausedAt == "0 ms", "\(String(describing: runner.pausedAt))")
        #expect(output.text.contains("+0.000s  value 10"), "\(output.text)")
        // Nobody reads t: the paused instant cannot take it, and time stays where it is.
        #expect(runner.run(text: "t.send 1\n", file: "t.pipe") == .compileErrors)
        #expect(runner.pausedAt == "0 ms")
        #expect(runner.finish().firstError?.message == "nobody took 1 from channel 't': no pipeline reads it")
    }
}
