import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `:step` and the commands of a paused run, in process: a runner on the virtual clock writing
/// into a file, as `plumb run` of a script with these lines would.
@Suite struct SteppingTests {
    private func runner(_ output: CapturedOutput) -> StatementRunner {
        StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
    }

    /// Runs each chunk and returns what each printed.
    private func steps(_ chunks: [String]) -> [String] {
        let output = CapturedOutput()
        let runner = runner(output)
        var printed: [String] = []
        var seen = 0
        for chunk in chunks {
            _ = runner.run(text: chunk, file: "t.pipe")
            let text = output.text
            printed.append(String(text.dropFirst(seen)))
            seen = text.count
        }
        _ = runner.finish()
        return printed
    }

    @Test("stepping a debounce: each :next runs one instant, prints what each stage did and the diagram with the cursor there")
    func steppedDebounce() {
        let printed = steps([":step marble \"-a-b-c|\" | debounce 150ms"] + Array(repeating: ":next", count: 6))
        #expect(printed[0].contains("▲ 0 ms"))
        #expect(printed[1].hasPrefix("  +0.100s  │ [0] marble value \"a\"\n"), "\(printed[1])")
        #expect(printed[1].contains("[0] marble \"-a-b-c|\"   ^-a\n[1] debounce 150ms     ^--\n                         ▲ 100 ms\n"), "\(printed[1])")
        // The next instant is debounce's at 250 ms: marble schedules only the frames that hold
        // something (issue 41: a frame per dash made long marbles quadratic), so no step stops at
        // 200 ms on an empty frame any more.
        #expect(printed[2].hasPrefix("  +0.250s  │ [1] debounce value \"a\"\n  +0.250s  value \"a\"\n"), "\(printed[2])")
        #expect(printed[2].contains("[1] debounce 150ms     ^----a\n                            ▲ 250 ms"), "\(printed[2])")
        #expect(printed[3].hasPrefix("  +0.300s  │ [0] marble value \"b\"\n"), "\(printed[3])")
        #expect(printed[6].contains("+0.600s  finished                2 values in 600 ms"), "\(printed[6])")
    }

    @Test("stepping an async pipeline: the cursor goes under the last lane's ↑ line, not between a lane and its pulls (issue 39)")
    func steppedAsyncCursorUnderTheLanes() {
        let printed = steps([":step interval 30ms | take 3 | values | asyncMap delay 100", ":next"])
        let lines = printed[1].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cursor = lines.firstIndex { $0.contains("▲ 30 ms") }
        let lastLane = lines.firstIndex { $0.hasPrefix("[3] asyncMap delay 100") }
        #expect(cursor != nil && lastLane != nil, "\(printed[1])")
        if let cursor, let lastLane {
            // The last lane, its ↑ line, then the cursor; no lane after it.
            #expect(cursor == lastLane + 2 && lines[lastLane + 1].contains("↑"), "\(printed[1])")
            #expect(!lines[(cursor + 1)...].contains { $0.hasPrefix("[") }, "\(printed[1])")
        }
    }

    @Test("the same keystrokes give the same output, byte for byte")
    func deterministic() {
        let chunks = [":step marble \"-a-b-c|\" | debounce 150ms", ":next", ":advance 220ms", ":break 1 value", ":continue", ":continue"]
        #expect(steps(chunks) == steps(chunks))
    }

    @Test(":break STAGE value pauses after the instant that stage emitted; :break clear lets :continue run to the end")
    func breakOnStage() {
        let printed = steps([
            ":step marble \"-a-b-c|\" | debounce 150ms", ":break debounce value", ":continue", ":continue", ":break clear", ":continue",
        ])
        #expect(printed[1].contains("break at [1] debounce 150ms on value"))
        #expect(printed[2].contains("break [1] debounce 150ms: value \"a\" at 250 ms"), "\(printed[2])")
        #expect(printed[2].contains("▲ 250 ms"))
        #expect(!printed[2].contains("value \"b\""))
        #expect(printed[3].contains("break [1] debounce 150ms: value \"b\" at 450 ms"), "\(printed[3])")
        #expect(printed[5].contains("finished                2 values in 600 ms"), "\(printed[5])")
    }

    @Test(":break on finished and on failed, by the stage's number")
    func breakOnEnds() {
        let printed = steps([":step marble \"-a-#\" | map { $0 }", ":break 0 failed", ":continue"])
        #expect(printed[2].contains("failed"), "\(printed[2])")
    }

    @Test("a paused run is fed by sends; finishing the subject ends it and expect checks it")
    func fedBySends() {
        let output = CapturedOutput()
        let runner = runner(output)
        let text = """
            let s = subject
            :step s | debounce 100ms | map { $0 * 10 }
            s.send 3
            :next
            s.send 4
            :next
            s.finish
            expect values [30, 40]
            """
        #expect(runner.run(text: text, file: "t.pipe") == .ok)
        #expect(runner.stepping == nil)
        #expect(runner.finish().exitCode == 0)
        #expect(output.text.contains("  +0.000s  │ [0] s value 3\n"), "\(output.text)")
        #expect(output.text.contains("  +0.100s  value 30\n"), "\(output.text)")
        #expect(output.text.contains("  +0.100s  │ [0] s value 4\n"), "\(output.text)")
        #expect(output.text.contains("  +0.200s  value 40\n"), "\(output.text)")
        #expect(output.text.contains("  +0.200s  finished"), "\(output.text)")
    }

    @Test("while paused a foreground pipeline is refused (it would move the paused clock); a job and :type are fine")
    func foregroundRefused() {
        let output = CapturedOutput()
        let runner = runner(output)
        #expect(runner.run(text: ":step interval 100ms | take 2", file: "t.pipe") == .ok)
        #expect(runner.run(text: "just 1 | sink", file: "t.pipe") == .compileErrors)
        #expect(runner.pausedAt == "0 ms")
        #expect(runner.run(text: ":type just 1", file: "t.pipe") == .ok)
        #expect(output.text.contains("AnyPublisher<Int, Never>"))
        #expect(runner.run(text: ":continue", file: "t.pipe") == .ok)
        #expect(runner.stepping == nil)
        #expect(runner.run(text: "just 1 | sink", file: "t.pipe") == .ok)
    }

    @Test(":marbles while paused shows the paused run's diagram with its cursor")
    func marblesWhilePaused() {
        let printed = steps([":step marble \"-a-|\"", ":next", ":marbles"])
        #expect(printed[2].contains("▲ 100 ms"), "\(printed[2])")
    }

    @Test("a new :step replaces the paused run: asked at the REPL, a no keeps it")
    func replaceAsks() {
        let output = CapturedOutput()
        let runner = runner(output)
        var asked: [String] = []
        runner.confirm = { question in
            asked.append(question)
            return false
        }
        _ = runner.run(text: ":step marble \"-a-|\"\n:step just 2", file: "t.pipe")
        #expect(asked == ["replace the run paused at 0 ms (marble \"-a-|\")? [y/n] "])
        #expect(runner.stepping?.pipeline.text == "marble \"-a-|\"")
        runner.confirm = { _ in true }
        _ = runner.run(text: ":step marble \"--b-|\"", file: "t.pipe")
        #expect(runner.stepping?.pipeline.text == "marble \"--b-|\"")
        #expect(output.text.contains("cancelled"))
        _ = runner.finish()
    }

    @Test(":continue over an endless interval stops at the horizon with the note, as a foreground run does")
    func continueHorizon() {
        let output = CapturedOutput()
        var options = ShellOptions(clock: .virtual)
        options.until = 1_000_000_000
        let runner = StatementRunner(options: options, out: output.sink, wake: WakePipe(), verbosity: .quiet)
        _ = runner.run(text: ":step interval 100ms\n:continue", file: "t.pipe")
        #expect(runner.stepping == nil)
        #expect(runner.last?.record.count == 10)
        #expect(runner.last?.record.termination == .cancelled)
    }

    @Test("a :break names a stage by number, whole text or operator name; a wrong or ambiguous one is E733 with the stages listed")
    func stageLookup() {
        let stages = [
            StageWatch.Stage(index: 0, label: "from [1, 2]"), StageWatch.Stage(index: 1, label: "map { $0 }"),
            StageWatch.Stage(index: 2, label: "map { $0 + 1 }"),
        ]
        #expect(Stepper.stage("[2]", among: stages) == .found(stages[2]))
        #expect(Stepper.stage("map { $0 }", among: stages) == .found(stages[1]))
        #expect(Stepper.stage("from", among: stages) == .found(stages[0]))
        guard case .problem(let ambiguous) = Stepper.stage("map", among: stages) else {
            Issue.record("map is ambiguous")
            return
        }
        #expect(ambiguous.id == ShellCode.noSuchStage.id)
        #expect(ambiguous.text.contains("2 stages are 'map': [1] map { $0 }, [2] map { $0 + 1 }"))
        guard case .problem(let missing) = Stepper.stage("5", among: stages) else {
            Issue.record("there is no stage 5")
            return
        }
        #expect(missing.text == "no stage 5: the stages are [0] from [1, 2], [1] map { $0 }, [2] map { $0 + 1 }")
    }

    @Test(
        "bad uses of the time commands are errors with their line and stop a script (exit 65)",
        arguments: [
            (":next", "t.pipe:1: error[E730]: :next needs a paused run: :step PIPELINE starts one"),
            (":break 1", "t.pipe:1: error[E730]: :break needs a paused run"),
            (":step let a = just 1", "t.pipe:1: error[E734]: :step takes a pipeline to run in the foreground"),
            (":step just 1 &", "t.pipe:1: error[E734]: :step takes a pipeline"),
            (":step marble \"-a|\"\n:advance soon", "t.pipe:2: error[E702]: usage: :advance D"),
            (":step marble \"-a|\"\n:break 9", "t.pipe:2: error[E733]: no stage 9: the stages are [0] marble \"-a|\""),
            (":step marble \"-a|\"\njust 1", "t.pipe:2: error[E732]: a stepped run is paused at 0 ms"),
        ])
    func badUses(_ script: String, _ message: String) throws {
        let path = try PlumbBinary.script(script, name: "t")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", path])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(message.replacingOccurrences(of: "t.pipe", with: path)), "\(result)")
        // The id is in the heading, and the next line says how to read its explanation.
        let code = String(message.split(separator: "[")[1].prefix(4))
        #expect(result.stderr.contains("for more about this error, run `plumb help \(code)`\n"), "\(result)")
    }

    @Test("a step where a timer ran and no stage emitted says whose timer it was")
    func timerNamesItsStage() {
        let printed = steps([":step marble \"----a-----|\" | collect byTime: 200ms", ":next"])
        #expect(printed[1].hasPrefix("  +0.200s  │ a timer of [1] collect byTime: 200ms ran; no stage emitted\n"), "\(printed[1])")
    }

    @Test(":help step tells the whole set: the moves, breaks, what works while paused, an example")
    func help() {
        let text = ShellHelp.help("step", style: Style(enabled: false))
        for part in [":next (Enter)", ":advance D", ":continue", ":stop", ":break STAGE [value|finished|failed]", "s.send 3", "example: :step"] {
            #expect(text.contains(part), "\(part) not in:\n\(text)")
        }
    }

    @Test(":step on the real clock says it needs the virtual one (E731)")
    func realClock() throws {
        let result = try PlumbBinary.run(["--clock", "real"], input: ":step just 1\n")
        #expect(result.stderr.contains(":step needs the virtual clock"), "\(result)")
        #expect(ShellMessage.steppingNeedsVirtualClock.id.description == "E731 stepping-needs-virtual-clock")
    }

    @Test(":advance with a duration past the longest says it is too long and gives the limit, not the usage line")
    func advanceTooLong() throws {
        let result = try PlumbBinary.run(
            ["--clock", "virtual"], input: ":step interval 1s\n:advance 9999999h\n:advance 99999999999999999\n:advance zz\n")
        #expect(result.stderr.contains("<stdin>:2: error[E702]: :advance 9999999h: the duration is too long: the longest is 2555555h"), "\(result)")
        #expect(result.stderr.contains("<stdin>:3: error[E702]: :advance 99999999999999999: the duration is too long"), "\(result)")
        #expect(result.stderr.contains("<stdin>:4: error[E702]: usage: :advance D"), "\(result)")
    }
}
