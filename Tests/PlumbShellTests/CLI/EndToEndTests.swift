import Foundation
import PipeLanguage
import Testing

/// Runs the built `plumb` binary and checks stdout, stderr and the exit code.
@Suite struct RunCommandTests {
    @Test("run prints each event with its time, then a summary")
    func runPrintsEvents() throws {
        let script = try PlumbBinary.script("from [1, 2, 3] | map { $0 * 10 }\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                  +0.000s  subscribed
                  +0.000s  value 10
                  +0.000s  value 20
                  +0.000s  value 30
                  +0.000s  finished                3 values in 0 ms

                """, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("times on the virtual clock are the simulated ones")
    func virtualTimes() throws {
        let script = try PlumbBinary.script("from [0, 1, 2] | asyncMap delay 100\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  +0.100s  value 0\n"), "\(result)")
        #expect(result.stdout.contains("  +0.300s  value 2\n"), "\(result)")
        #expect(result.stdout.contains("3 values in 300 ms"), "\(result)")
    }

    @Test("statements run in order; bindings and subjects carry over; jobs print with their number")
    func bindingsAndJobs() throws {
        let script = try PlumbBinary.script(
            """
            let ticks = from [1, 2] | asyncMap delay 100ms
            ticks | scan 0 { $0 + $1 }
            let s = subject
            s | map { $0 * 2 } | sink &
            s.send 1
            s.send 2
            s.finish
            """)
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  +0.200s  value 3\n"), "\(result)")
        #expect(result.stdout.contains("[1] +0.000s  value 2\n"), "\(result)")
        #expect(result.stdout.contains("[1] +0.000s  value 4\n"), "\(result)")
        #expect(result.stdout.contains("[1] +0.000s  finished"), "\(result)")
    }

    @Test("background jobs still running at the end of a script are cancelled")
    func jobsCancelledAtEnd() throws {
        let script = try PlumbBinary.script("let s = subject\ns | sink &\njust 1\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("[1] +0.000s  cancelled"), "\(result)")
    }

    @Test("exit 1 when a pipeline fails, and the failure is printed")
    func failureExitsOne() throws {
        let script = try PlumbBinary.script("just 1\nfail \"boom\"\njust 2\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("failed: boom"), "\(result)")
        #expect(result.stdout.contains("value 2"), "the script goes on after a failed pipeline: \(result)")
    }

    @Test("an expected failure does not fail the script")
    func expectedFailure() throws {
        let script = try PlumbBinary.script("fail \"boom\"\nexpect failed \"boom\"\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 0, "\(result)")
    }

    @Test("exit 1 when an expect does not hold, with expected and got")
    func expectationExitsOne() throws {
        let script = try PlumbBinary.script("just 1\nexpect values [2]\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", script])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains(":2: expect failed: expected values [2], got values [1]"), "\(result)")
    }

    @Test("exit 65 for a syntax error: a diagnostic on stderr and nothing runs")
    func syntaxErrorExits65() throws {
        let script = try PlumbBinary.script("just 1\njust 1 | mpa { $0 }\n")
        let result = try PlumbBinary.run(["run", script])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains(":2:"), "\(result)")
        #expect(result.stderr.contains("mpa"), "\(result)")
        #expect(result.stderr.contains("did you mean 'map'?"), "\(result)")
    }

    @Test(
        "exit 2 for usage errors",
        arguments: [
            ["run"], ["--bogus"], ["--clock", "fast"], ["frobnicate"], ["run", "/nonexistent/x.pipe"], ["test", "/nonexistent"],
        ])
    func usageExitsTwo(arguments: [String]) throws {
        let result = try PlumbBinary.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("plumb: error[E7"), "\(result)")
    }

    @Test("run - reads the script from standard input")
    func runStandardInput() throws {
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "-"], input: "just 7\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  +0.000s  value 7\n"), "\(result)")
    }

    @Test(":-commands work in scripts")
    func commandsInScripts() throws {
        let script = try PlumbBinary.script(":help map\n:clock virtual\njust 1 | asyncMap delay 2s\n")
        let result = try PlumbBinary.run(["run", script])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("map"), "\(result)")
        #expect(result.stdout.contains("  +2.000s  value"), "the clock switched to virtual: \(result)")
    }
}

@Suite struct StandardInputModeTests {
    @Test("echo 'just 1' | plumb: statements from stdin, no prompt, no colour")
    func pipedStatements() throws {
        let result = try PlumbBinary.run([], input: "just 1\nfrom [1, 2] |\n  map { $0 + 1 }\n", environment: ["NO_COLOR": ""])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("plumb>"), "\(result)")
        #expect(!result.stdout.contains("\u{1B}["), "\(result)")
        #expect(result.stdout.contains("value 1\n"), "\(result)")
        #expect(result.stdout.contains("value 3\n"), "a continued line runs as one statement: \(result)")
    }

    @Test("a bad line in stdin mode is reported, later lines still run, exit 65")
    func badLine() throws {
        let result = try PlumbBinary.run([], input: "just 1 | mpa { $0 }\njust 2\n")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("<stdin>:1:"), "\(result)")
        #expect(result.stdout.contains("value 2"), "\(result)")
    }
}

@Suite struct CheckAndTestCommandTests {
    @Test("check: ok for a clean script, 65 and a diagnostic for a bad one, nothing runs")
    func check() throws {
        let good = try PlumbBinary.script("from [1, 2] | asyncMap delay 1s\n")
        let ok = try PlumbBinary.run(["check", good])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("ok \(good)"), "\(ok)")
        #expect(!ok.stdout.contains("value"), "\(ok)")
        let bad = try PlumbBinary.script("just 1 |\n")
        let failed = try PlumbBinary.run(["check", bad])
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.stderr.contains("error"), "\(failed)")
    }

    @Test("test: PASS and FAIL per file, a total, exit 1 on a failure")
    func testFolder() throws {
        let folder = try PlumbBinary.folder([
            "a-pass.pipe": "from [1, 2] | map { $0 * 2 }\nexpect values [2, 4]\nexpect finished\nexpect count 2\n",
            "b-fail.pipe": "just 1\nexpect values [1]\njust 2\nexpect values [3]\n",
            "nested/c-time.pipe": "from [1, 2, 3] | asyncMap delay 1s\nexpect time 3s\n",
        ])
        let result = try PlumbBinary.run(["test", folder])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout == """
                PASS \(folder)/a-pass.pipe
                FAIL \(folder)/b-fail.pipe:4: expected values [3], got values [2]
                PASS \(folder)/nested/c-time.pipe
                2 passed, 1 failed

                """, "\(result)")
    }

    @Test("test: exit 0 when all pass; 65 when a script has errors")
    func testExitCodes() throws {
        let pass = try PlumbBinary.folder(["ok.pipe": "just 1\nexpect values [1]\n"])
        let passed = try PlumbBinary.run(["test", pass])
        #expect(passed.status == 0, "\(passed)")
        #expect(passed.stdout.hasSuffix("1 passed, 0 failed\n"), "\(passed)")
        let broken = try PlumbBinary.folder(["bad.pipe": "just 1 | mpa { $0 }\n"])
        let failed = try PlumbBinary.run(["test", broken])
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.stdout.contains("FAIL \(broken)/bad.pipe:1:"), "\(failed)")
    }

    @Test("Examples/expect.pipe and the workshop's solutions pass plumb test")
    func exercises() throws {
        let checks = PlumbBinary.packageRoot.appendingPathComponent("Examples/expect.pipe").path
        let solutions = PlumbBinary.packageRoot.appendingPathComponent("Examples/workshop/solutions").path
        let result = try PlumbBinary.run(["test", checks, solutions])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("PASS \(checks)\n"), "\(result)")
        #expect(result.stdout.hasSuffix(" passed, 0 failed\n"), "\(result)")
    }

    @Test("every example script checks clean")
    func examplesCheck() throws {
        let examples = PlumbBinary.packageRoot.appendingPathComponent("Examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".pipe") }.sorted().map { examples.appendingPathComponent($0).path }
        #expect(!files.isEmpty)
        let result = try PlumbBinary.run(["check"] + files)
        #expect(result.status == 0, "\(result)")
    }
}

@Suite struct OutputFormatTests {
    @Test("--format jsonl: every line is a JSON object with job, t and event")
    func jsonLines() throws {
        let script = try PlumbBinary.script("from [0, 1] | asyncMap delay 100 | map { \"v\\($0)\" }\nfail \"bad\"\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "--format", "jsonl", "run", script])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        let objects = try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        #expect(objects.map { $0["event"] as? String } == ["subscribed", "value", "value", "finished", "subscribed", "failed"])
        #expect(objects.allSatisfy { $0["job"] as? Int == 0 && $0["t"] is Double })
        #expect(objects[1]["value"] as? String == "v0")
        #expect(objects[2]["t"] as? Double == 0.2)
        #expect(objects[5]["error"] as? String == "bad")
    }

    @Test("--clock virtual output is byte-identical across runs")
    func deterministic() throws {
        let script = try PlumbBinary.script(
            """
            from 1...5 | asyncMap delay 100ms | map { $0 * $0 }
            just 5 | asyncMap delay 250 | sink
            just 1 | asyncMap flaky 2 | replaceError -1
            let f = future delay 300 value 42
            f
            just 0 | asyncMap delay 10s
            """)
        let first = try PlumbBinary.run(["--clock", "virtual", "run", script])
        let second = try PlumbBinary.run(["--clock", "virtual", "run", script])
        let third = try PlumbBinary.run(["--clock", "virtual", "--format", "jsonl", "run", script])
        let fourth = try PlumbBinary.run(["--clock", "virtual", "--format", "jsonl", "run", script])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("+10.000s"), "\(first)")
        #expect(first.stdoutData == second.stdoutData)
        #expect(third.stdoutData == fourth.stdoutData)
    }

    @Test("--help and help COMMAND describe everything, including the exit codes")
    func help() throws {
        let help = try PlumbBinary.run(["--help"])
        #expect(help.status == 0)
        for text in ["run", "check", "test", "--clock", "--format", "--no-color", "EXIT CODES", "65", "PLUMB_HISTORY"] {
            #expect(help.stdout.contains(text), "\(text) missing from --help")
        }
        for command in ["run", "check", "test", "repl"] {
            let result = try PlumbBinary.run(["help", command])
            #expect(result.status == 0)
            #expect(result.stdout.contains("plumb \(command == "repl" ? "[repl]" : command)"), "\(result)")
        }
    }
}
