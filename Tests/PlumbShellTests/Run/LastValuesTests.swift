import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `_` (the last foreground run's values) and `_N` (job N's), as sources.
@Suite struct LastValuesTests {
    private func run(_ text: String) -> (result: StepResult, output: String, runner: StatementRunner) {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        let result = runner.run(text: text, file: "t.pipe")
        return (result, output.text, runner)
    }

    @Test("_ replays the last run's values: _ | map { … } runs over them, and an expect checks it")
    func lastRun() {
        let (result, output, runner) = run("from [1, 2, 3] | map { $0 * 10 }\n_ | map { $0 + 1 }\nexpect values [11, 21, 31]\n:bindings")
        #expect(result == .ok, "\(output)")
        #expect(output.contains("_  the last run's 3 values"), "\(output)")
        #expect(runner.finish().exitCode == 0)
    }

    @Test("_N replays job N's values once it ended; a script naming it right after works too")
    func job() {
        let text = "let s = subject\ns | take 2 &\ns.send \"a\"\ns.send \"b\"\n_1 | map { $0 + \"!\" }\nexpect values [\"a!\", \"b!\"]"
        let (result, output, runner) = run(text)
        #expect(result == .ok, "\(output)")
        #expect(runner.finish().exitCode == 0)
    }

    @Test("a stepped run's values are _ when it ends; kinds other than Int replay as themselves")
    func steppedAndKinds() {
        let (result, output, _) = run(
            ":step marble \"-a-b|\"\n:continue\n_ | collect\nexpect values [[\"a\", \"b\"]]\nfrom [1.5, nil, true, [1]] | sink\n_ | count\nexpect values [4]")
        #expect(result == .ok, "\(output)")
    }

    @Test("a run with more values than _ replays: _ fails saying so")
    func tooMany() {
        let (result, output, _) = run("from 1...10001 | sink\n_ | sink\nexpect failed \"the last run had 10001 values; _ replays at most 10000\"")
        #expect(result == .ok, "\(output)")
    }

    @Test("a person's own let _ = … and let _2 = … bind the name: no E703, and _ is theirs until the next run")
    func ownLet() {
        // The scan for `_` counted the name a `let` binds as a use: `let _ = from [2]` was E703.
        let (result, output, _) = run(
            "let _ = from [2]\n_ | map { $0 + 1 }\nexpect values [3]\nlet _2 = just 5\n_2 | count\nexpect values [1]\n_ | count\nexpect values [1]")
        #expect(result == .ok, "\(output)")
        #expect(!output.contains("E703"), "\(output)")
    }

    @Test("plumb test of a script that uses _ passes (the binary)")
    func inScripts() throws {
        let path = try PlumbBinary.script("just 4 | map { $0 * 2 }\n_ | map { $0 + 1 }\nexpect values [9]\n")
        let result = try PlumbBinary.run(["test", path])
        #expect(result.status == 0, "\(result)")
    }

    @Test(
        "_1 while job 1 still runs, _7 with no job 7 and _ before any run are errors naming the job, the line and what to type",
        arguments: [
            ("interval 1s | sink &\n_1 | count\n", "<stdin>:2: error[E703]: `_1` has no values yet: job 1 is still running", ":cancel 1"),
            ("_7 | map { $0 * 2 } | count\n", "<stdin>:1: error[E703]: `_7` names job 7, and there is no job 7", ":jobs"),
            ("just 1 | count\n_ | zip _3 | count\n", "<stdin>:2: error[E703]: `_3` names job 3, and there is no job 3", ":jobs"),
            ("_ | count\n", "<stdin>:1: error[E703]: `_` has no values yet: no pipeline has run", "run one"),
            // A `let` of `_` binds it; a `_` on its right side is still a use.
            ("let _ = _ | map { $0 * 2 }\n", "<stdin>:1: error[E703]: `_` has no values yet: no pipeline has run", "run one"),
        ])
    func notReady(input: String, error: String, hint: String) throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: input)
        #expect(result.stderr.contains(error), "\(result)")
        #expect(result.stderr.contains(hint), "\(result)")
        #expect(!result.stdout.contains("value 0"), "\(result)")
    }

    @Test("a script naming a job that is still running stops with the error instead of counting no values")
    func notReadyInScript() throws {
        let path = try PlumbBinary.script("from [1, 2, 3] | delay 1s | sink &\n_1 | count\nexpect values [0]\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "test", path])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains(":2: error[E703]: `_1` has no values yet: job 1 is still running"), "\(result)")
    }
}
