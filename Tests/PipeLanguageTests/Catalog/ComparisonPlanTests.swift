import Testing
@testable import PipeLanguage

/// `:compare`'s plan (issue 39): the pulled text puts `values` after the source so every later
/// stage resolves to its async twin; a pipeline that crosses compares `stream` against `values`;
/// a stage with no twin is E410 at its name.
@Suite struct ComparisonPlanTests {
    static func plan(_ text: String) -> Result<ComparisonPlan, Diagnostic> {
        Session(runtime: Runtime(clock: .virtual)).comparisonPlan(of: text)
    }

    @Test("without a crossing, the pull run crosses right after the source; each twin's documented difference is a reason")
    func twins() throws {
        let plan = try Self.plan("interval 100ms | take 3 | debounce 150ms").get()
        #expect(plan.mode == .twins)
        #expect(plan.push == "interval 100ms | take 3 | debounce 150ms")
        #expect(plan.pull == "interval 100ms | values | take 3 | debounce 150ms")
        #expect(plan.reasons.map(\.stage) == [1, 2])
        #expect(plan.reasons.last?.text.hasPrefix("debounce: when its base finishes") == true)
        #expect(plan.pullIndex(of: 0) == 0 && plan.pullIndex(of: 2) == 3)
        // A source alone, and a background pipeline or a trailing comment (not part of either run).
        #expect(try Self.plan("from [1, 2]").get().pull == "from [1, 2] | values")
        #expect(try Self.plan("just 1 | map { $0 } &").get().pull == "just 1 | values | map { $0 }")
        #expect(try Self.plan("just 1 | map { $0 } # note").get().push == "just 1 | map { $0 }")
    }

    @Test("a pipeline that crosses compares the bridges: stream in the push run, values in the pull run")
    func bridges() throws {
        let plan = try Self.plan("interval 10ms | take 5 | values | map { $0 }").get()
        #expect(plan.mode == .bridges)
        #expect(plan.push == "interval 10ms | take 5 | stream | map { $0 }")
        #expect(plan.pull == "interval 10ms | take 5 | values | map { $0 }")
        let newest = try Self.plan("interval 10ms | stream newest 1 | map { $0 } | publisher | retry 1").get()
        #expect(newest.push == "interval 10ms | stream newest 1 | map { $0 } | publisher | retry 1")
        #expect(newest.pull == "interval 10ms | values | map { $0 } | publisher | retry 1")
        #expect(newest.reasons.count == 1 && newest.reasons[0].text.contains("article 002"))
    }

    @Test("a stage with no async twin is E410 at its name, with what to do")
    func noTwin() {
        guard case .failure(let d) = Self.plan("just 1 | map { $0 } | retry 2") else {
            Issue.record("planned")
            return
        }
        #expect(d.id.code == "E410" && d.id.name == "no-twin-to-compare")
        #expect(d.location.line == 1 && d.location.column == 23)
        #expect(d.message.contains("'retry' has no async twin"))
        #expect(d.help?.contains("compare the pipeline before 'retry'") == true)
        // A terminal has no async form either.
        if case .failure(let sink) = Self.plan("just 1 | sink") { #expect(sink.id.code == "E410") } else { Issue.record("sink planned") }
    }

    @Test("what is not one pipeline is refused with :type's ids; a compile error is the error")
    func notAPipeline() {
        if case .failure(let d) = Self.plan("let x = just 1") { #expect(d.id.code == "E407" && d.message == ":compare takes a pipeline") }
        if case .failure(let d) = Self.plan("just 1\njust 2") { #expect(d.id.code == "E406") }
        if case .failure(let d) = Self.plan("just 1 | mpa { $0 }") { #expect(d.id.code == "E302") } else { Issue.record("planned") }
    }

    /// The standard library's `AsyncSequence.prefix(_:)`, `dropFirst(_:)` and `map` with an async
    /// closure: the twins `:compare` needs for `take`, `skip` and `asyncMap`.
    @Test("prefix, dropFirst and asyncMap have async twins")
    func newTwins() {
        #expect(run("interval 100ms | values | take 2") == ["0 subscribed", "100 value 0", "200 value 1", "200 finished"])
        #expect(run("from 1...5 | values | dropFirst 3") == ["0 subscribed", "0 value 4", "0 value 5", "0 finished"])
        #expect(run("from 1...5 | values | prefix while: { $0 < 3 }") == ["0 subscribed", "0 value 1", "0 value 2", "0 finished"])
        #expect(run("from [1, 2] | values | asyncMap delay 100ms") == ["0 subscribed", "100 value 1", "200 value 2", "200 finished"])
        for name in ["prefix", "dropFirst", "asyncMap"] { #expect(Catalog.entry(named: name)?.sides == [.publisher, .async], "\(name)") }
    }
}
