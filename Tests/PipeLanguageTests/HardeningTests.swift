import Testing
@testable import PipeLanguage

/// Issue "nothing a person types kills the shell": the language's part.
@Suite struct HardeningTests {
    @Test(
        "a string or array past its cap fails the pipeline at the closure, like an overflow",
        arguments: [
            ("from 1...40 | scan \"x\" { $0 + $0 }", "string of 33554432 bytes is over the limit of 16777216 bytes (16 MiB)"),
            ("from 1...40 | scan \"x\" { \"\\($0)\\($0)\" }", "string of 33554432 bytes is over the limit of 16777216 bytes (16 MiB)"),
            ("from 1...40 | scan [1] { $0 + $0 }", "array of 1048576 elements is over the limit of 1000000"),
        ])
    func valueCaps(_ text: String, _ message: String) {
        let events = run(text)
        #expect(events.last?.hasPrefix("0 failed: \(message)") == true, "\(events.suffix(2))")
        #expect(events.count < 40)
    }

    @Test("share in a binding is built once: a later use joins the running upstream")
    func shareThroughBinding() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(
            run("let t = interval 100ms | take 5 | share\nt | sink &\ntimer 250ms | flatMap { t }", session: session)
                == ["0 subscribed", "300 value 2", "400 value 3", "500 value 4", "500 finished"])
        // Cold bindings still rebuild per use.
        #expect(
            run("let c = interval 100ms | take 2\nc | sink &\ntimer 150ms | flatMap { c }", session: session)
                == ["0 subscribed", "250 value 0", "350 value 1", "350 finished"])
    }

    @Test("a subject followed by share: sends still reach it, and uses share the stages before share")
    func subjectThenShare() {
        let session = Session(runtime: Runtime(clock: .virtual))
        #expect(run("let s = subject\nlet m = s | map { $0 * 10 } | share\nm | take 1 &\ns.send 2", session: session).isEmpty)
        #expect(diagnose("m.send 1", session: session).map(\.id.name) == ["not-subject"])
    }

    @Test(
        "Double arithmetic that leaves the finite range fails with its position, as Int overflow does",
        arguments: [
            ("just 1e308 | map { $0 * 10 }", "arithmetic overflow: 1e+308 * 10.0"),
            ("just 1 | map { 1e308 + 1e308 }", "arithmetic overflow: 1e+308 + 1e+308"),
            ("just 1e-308 | map { 1e308 / $0 }", "arithmetic overflow: 1e+308 / 1e-308"),
            ("just \"inf\" | map { Double($0) }", "cannot convert"),
        ])
    func doubleOverflow(_ text: String, _ message: String) {
        #expect(run(text).last?.hasPrefix("0 failed: \(message)") == true, "\(run(text))")
    }

    @Test("Int.min can be written as a literal, also as a range bound")
    func intMinLiteral() {
        #expect(run("just -9223372036854775808") == ["0 subscribed", "0 value -9223372036854775808", "0 finished"])
        #expect(run("from -9223372036854775808...-9223372036854775807 | count") == ["0 subscribed", "0 value 2", "0 finished"])
        #expect(diagnose("just 9223372036854775808").map(\.id.name) == ["integer-literal-overflow"])
        #expect(diagnose("from 5...-9223372036854775808").first?.message == "range 5...-9223372036854775808 has its lower bound above its upper bound")
    }

    @Test("interval 0ms and collect byTime: 0 are check errors, not run-time failures")
    func zeroPeriods() {
        #expect(diagnose("interval 0ms").map(\.message) == ["interval expects a duration of at least 1ns (durations are whole nanoseconds), got 0ms"])
        #expect(diagnose("interval 0.5ns").map(\.message) == ["interval expects a duration of at least 1ns (durations are whole nanoseconds), got 0.5ns"])
        #expect(diagnose("from 1...3 | collect byTime: 0").first?.id.name == "wrong-argument")
        #expect(diagnose("interval 1ms | take 1").isEmpty)
    }
}

@Suite struct CollectGrowthTests {
    /// The cost (linear, not quadratic) is measured by `plumb-bench --filter collect-growth`; here
    /// the result, and a time limit that a quadratic collect (each append copying the array: some
    /// 2 × 10¹⁰ element copies at this size) overruns by far.
    @Test("collect of 200,000 values gives one array of them all (it was quadratic: each append copied)", .hangLimit)
    func large() {
        let events = run("from 1...200000 | collect | map { [$0.count, $0[0], $0[199999]] }")
        #expect(events == ["0 subscribed", "0 value [200000, 1, 200000]", "0 finished"])
    }
}
