import PipeLanguage
import Testing

@testable import PlumbShell

/// `:step` on an async pipeline (issue 39): the async stages' events come instant by instant on
/// the one virtual timeline, with the publisher stages'.
@Suite struct AsyncStepTests {
    @Test(":step through interval | take | values | debounce: each instant's stage events, the async debounce's pending element at 300 ms")
    func stepAsync() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        let script = ":step interval 100ms | take 3 | values | debounce 150ms\n:next\n:next\n:continue\n"
        #expect(runner.run(text: script, file: "t.pipe") == .ok)
        _ = runner.finish()
        let lines = output.text.split(separator: "\n").map { String($0) }
        // At 200 ms the async side has seen 1 and the debounce waits.
        #expect(lines.contains("  +0.200s  │ [2] values value 1"), "\(output.text)")
        #expect(!lines.contains("  +0.200s  │ [3] debounce value 1"), "\(output.text)")
        // At 300 ms the base finishes and the debounce emits 2 at once, then finishes (the Debounce guide).
        let at300 = lines.filter { $0.hasPrefix("  +0.300s  │ [3] debounce") }
        #expect(at300 == ["  +0.300s  │ [3] debounce value 2", "  +0.300s  │ [3] debounce finished"], "\(output.text)")
        #expect(lines.contains { $0.hasPrefix("[3] debounce 150ms") && $0.hasSuffix("^-----(2|)") }, "\(output.text)")
    }
}
