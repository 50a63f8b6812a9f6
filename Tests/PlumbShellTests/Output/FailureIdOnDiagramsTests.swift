import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// A failure the language raised carries its id on every line that shows it, as the event line
/// does (`failed[E602]: …`): the text diagram's legend, the SVG's title and legend, a stepped
/// run's per-stage lines and `:trace` lines. A user's own `fail "boom"` has none (issue 40: the
/// diagram's model held only the message, so these said `failed:` or `#: …` without it).
@Suite struct FailureIdOnDiagramsTests {
    /// Division by zero (E602) in the first pipeline, a user's failure in the second.
    static let script = "from [10, 0] | map { 100 / $0 }\nfail \"boom\"\n"

    @Test("the text diagram's legend: #: failed[E602]: … for division by zero, #: boom for fail \"boom\"")
    func textLegend() throws {
        let run = try PlumbBinary.run(["--clock", "virtual", "--marbles", "run", try PlumbBinary.script(Self.script)])
        #expect(run.stdout.contains("\n#: failed[E602]: division by zero: 100 / 0\n"), "\(run)")
        #expect(run.stdout.contains("\n#: boom\n"), "\(run)")
        #expect(!run.stdout.contains("#: failed: boom"), "\(run)")
    }

    @Test("the SVG, read back: the ✕'s title is failed[E602]: … (failed: boom for the user's), and so is its legend")
    func svgTitle() throws {
        let folder = try PlumbBinary.folder(["x.pipe": Self.script])
        let run = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", "\(folder)/x.svg", "\(folder)/x.pipe"])
        #expect(run.status == 1, "\(run)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".svg") }.sorted()
        let svgs = try files.map { try String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8) }.joined()
        #expect(svgs.contains("<title>failed[E602]: division by zero: 100 / 0</title>"), "\(files)")
        #expect(svgs.contains("✕ failed[E602]: division by zero: 100 / 0"), "\(files)")
        #expect(svgs.contains("<title>failed: boom</title>"), "\(files)")
    }

    @Test(":step: a stage's failed line names the id; a user's fail stays failed:")
    func steppedLines() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        _ = runner.run(text: ":step from [10, 0] | map { 100 / $0 }", file: "t.pipe")
        _ = runner.run(text: ":continue", file: "t.pipe")
        _ = runner.run(text: ":step fail \"boom\"", file: "t.pipe")
        _ = runner.run(text: ":continue", file: "t.pipe")
        _ = runner.finish()
        let text = output.text
        #expect(text.contains("│ [1] map failed[E602]: division by zero: 100 / 0"), "\(text)")
        #expect(text.contains("│ [0] fail failed: boom"), "\(text)")
    }

    @Test("--trace and :trace on: the failing stage's trace line names the id; a user's fail stays failed:")
    func traceLines() throws {
        let flag = try PlumbBinary.run(["--trace", "--clock", "virtual", "run", try PlumbBinary.script(Self.script)])
        let command = try PlumbBinary.run(["--clock", "virtual", "run", try PlumbBinary.script(":trace on\n" + Self.script)])
        for run in [flag, command] {
            #expect(run.stdout.contains("│ map#1 failed[E602]: division by zero: 100 / 0  ["), "\(run)")
            #expect(run.stdout.contains("│ fail#0 failed: boom  ["), "\(run)")
        }
    }
}
