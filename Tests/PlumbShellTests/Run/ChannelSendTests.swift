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

    @Test("on the real clock too: each send returns once the job took it; the values come in order", .timeLimit(.minutes(1)))
    func realReader() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .real)
        #expect(runner.run(text: Self.script, file: "c.pipe") == .ok)
        _ = runner.finish()
        let lines = output.text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        // The times vary; the events do not.
        let events = lines.filter { $0.count >= 3 && $0[0] == "[1]" }.map { $0.dropFirst(2).prefix(2).joined(separator: " ") }
        #expect(events == ["subscribed", "value 10", "value 20", "finished 2"], "\(output.text)")
    }

    @Test(
        "a send nobody reads is E411 at once in a script, on either clock, and the script stops there",
        .timeLimit(.minutes(1)), arguments: [ClockMode.virtual, .real])
    func noReader(clock: ClockMode) {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: clock)
        #expect(runner.run(text: "let c = channel\nc.send 1\njust 2\n", file: "c.pipe") == .compileErrors)
        let report = runner.finish()
        #expect(report.firstError?.id?.code == "E411")
        #expect(report.firstError?.location.line == 2)
        #expect(report.firstError?.message == "nobody took 1 from channel 'c': no pipeline reads it")
        #expect(!output.text.contains("value 2"), "the script went on: \(output.text)")
    }

    @Test("a reader that ended (take 1) reads no more: the next send is E411, not a hang", .timeLimit(.minutes(1)), arguments: [ClockMode.virtual, .real])
    func readerEnded(clock: ClockMode) {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: clock)
        #expect(runner.run(text: "let c = channel\nc | take 1 &\nc.send 1\nc.send 2\n", file: "c.pipe") == .compileErrors)
        let report = runner.finish()
        #expect(report.firstError?.id?.code == "E411")
        #expect(report.firstError?.location.line == 4)
        #expect(output.text.contains("value 1"), "\(output.text)")
    }

    @Test("a reader on the virtual clock that takes nothing more (it waits on a timer that never fires first) is E411 with the horizon's reason")
    func virtualReaderNeverPulls() {
        let output = CapturedOutput()
        var options = ShellOptions(clock: .virtual)
        options.until = 1_000_000_000
        let runner = StatementRunner(options: options, out: output.sink, wake: WakePipe())
        // The reader takes 1, then waits for `interval`'s ticks to zip with: a second value is never pulled
        // before the horizon (the interval never ends).
        let text = "let c = channel\nc | zip (interval 10s | values) | publisher &\nc.send 1\nc.send 2\n"
        let result = runner.run(text: text, file: "c.pipe")
        let report = runner.finish()
        #expect(result == .compileErrors, "\(output.text)")
        #expect(report.firstError?.id?.code == "E411", "\(String(describing: report.firstError))")
    }

    @Test("a send after finish is E334 and nothing of the script runs")
    func afterFinish() {
        let output = CapturedOutput()
        let runner = Self.runner(output, clock: .virtual)
        #expect(runner.run(text: "let c = channel\nc | sink &\nc.finish\nc.send 1\n", file: "c.pipe") == .compileErrors)
        #expect(runner.finish().firstError?.id?.code == "E334")
        #expect(output.text.isEmpty, "\(output.text)")
    }
}
