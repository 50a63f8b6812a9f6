import Testing
@testable import PipeLanguage

/// Closure arithmetic never traps: overflow, division by zero, bad conversions and type
/// mismatches fail the pipeline with the closure's position.
@Suite struct ArithmeticTests {
    static let failures: [(String, String)] = [
        ("just 9223372036854775807 | map { $0 + 1 }", "arithmetic overflow: 9223372036854775807 + 1"),
        ("just -9223372036854775807 | map { $0 - 2 }", "arithmetic overflow: -9223372036854775807 - 2"),
        ("just 4611686018427387904 | map { $0 * 2 }", "arithmetic overflow: 4611686018427387904 * 2"),
        ("just 1 | map { $0 / 0 }", "division by zero: 1 / 0"),
        ("just 1 | map { $0 % 0 }", "division by zero: 1 % 0"),
        ("just 1.5 | map { $0 / 0 }", "division by zero: 1.5 / 0"),
        ("just -9223372036854775807 | map { ($0 - 1) / -1 }", "arithmetic overflow: -9223372036854775808 / -1"),
        ("just -9223372036854775807 | map { -($0 - 1) }", "arithmetic overflow: -(-9223372036854775808)"),
        ("just -9223372036854775807 | map { abs($0 - 1) }", "arithmetic overflow: abs(-9223372036854775808)"),
        ("just 1e300 | map { Int($0) }", "cannot convert 1e+300 to Int"),
        ("just \"x\" | map { Int($0) }", "cannot convert \"x\" to Int"),
        // Mixed kinds: the static pass cannot know `$0`, so these fail at run time.
        ("from [\"a\", 1] | map { $0 * 2 }", "cannot apply '*' to String \"a\" and Int 2"),
        ("just [1, 2] | map { $0[5] }", "index 5 out of range (count 2)"),
        ("just 1 | filter { $0 }", "filter's closure must return a Bool"),
        ("from [1, \"b\"] | map { $0 > \"a\" }", "cannot compare Int 1 with String \"a\""),
        ("just 1 | map { $0 ? 1 : 2 }", "the condition of '?:' must be a Bool"),
        ("just 1 | map { $0.count }", "Int has no member 'count'"),
        ("from [3, \"a\"] | max", "cannot compare"),
        ("from [1, \"x\"] | flatMap { from 1...$0 }", "from expects a range of integers"),
        ("from [2, -1] | flatMap { just 1 | take $0 }", "take expects a non-negative integer, got -1"),
    ]

    @Test("overflow, division by zero and bad conversions fail the pipeline, never trap")
    func failuresAreEvents() {
        for (text, message) in Self.failures {
            let events = run(text)
            #expect(events.last?.hasPrefix("0 failed: \(message)") == true, "\(text): \(events)")
        }
    }

    @Test("a closure's run-time error names the closure's position")
    func location() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, _) = session.compile("just 1\njust 1 | map { 2 + $0 / 0 }", file: "s.pipe")
        guard case .success(.run(let pipeline)) = session.execute(statements[1]) else {
            Issue.record("no pipeline")
            return
        }
        let recorder = Lock<PipelineError?>(nil)
        let c = pipeline.start(trace: false) { if case .failed(let e) = $0 { recorder.withLock { $0 = e } } }
        session.runtime.driveVirtualTime { recorder.withLock { $0 != nil } }
        let error = recorder.withLock { $0 }
        #expect(error?.location == PipeLanguage.SourceLocation(file: "s.pipe", line: 2, column: 20))
        #expect(error?.description == "division by zero: 1 / 0 (at s.pipe:2:20)")
        withExtendedLifetime(c) {}
    }

    @Test("arithmetic that fits gives Swift's results")
    func values() {
        #expect(
            run("just 7 | map { [$0 / 2, $0 % 3, -$0, $0 * 1.5, abs(-3), min(2, $0), max(2.5, 1), Int(\"42\"), Double(3), String($0) + \"!\", round(2.5)] }")
                == ["0 subscribed", "0 value [3, 1, -7, 10.5, 3, 2, 2.5, 42, 3.0, \"7!\", 3.0]", "0 finished"])
        #expect(
            run("just \"ab\" | map { \"<\\($0)\\($0.count)>\" + $0.uppercased() }")
                == ["0 subscribed", "0 value \"<ab2>AB\"", "0 finished"])
        #expect(
            run("just nil | map { $0 ?? 3 == 3 && !false || 1 / 0 == 1 }")
                == ["0 subscribed", "0 value true", "0 finished"])
    }
}
