import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// `:compare` and `plumb compare` (issue 39): a pipeline run pushed and pulled on the virtual
/// clock, the events side by side with the differing lines marked, and why.
@Suite struct CompareTests {
    static func comparison(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> PipelineComparison {
        PipelineComparison(try Session(runtime: Runtime(clock: .virtual)).comparisonPlan(of: text).get())
    }

    /// The rows as `push | pull`, `≠` first where they differ.
    static func rows(_ c: PipelineComparison) -> [String] {
        c.rows.map { ($0.differs ? "≠ " : "") + ($0.push ?? "-") + " | " + ($0.pull ?? "-") }
    }

    /// Pipelines whose difference (or sameness) is documented: each twin's source is named.
    static let same: [String] = [
        // AsyncSequence.map/filter (the standard library): the same values when nothing is slow.
        "from 1...6 | filter { $0 % 2 == 0 } | map { $0 * 10 }",
        // swift-async-algorithms' RemoveDuplicates guide: "the same as Combine's removeDuplicates".
        "from [1, 1, 2, 2, 1] | removeDuplicates",
        // The Merge, Zip and CombineLatest guides: the same values as Combine's operators.
        "interval 100ms | take 2 | merge (interval 150ms | take 2)",
        "from [1, 2, 3] | zip (from [\"a\", \"b\"])",
        "interval 100ms | take 3 | combineLatest (interval 150ms | take 2)",
        "from 1...5 | dropFirst 2 | compactMap { $0 > 3 ? $0 : nil }",
    ]

    @Test("pipelines whose twins behave the same print the same events both ways", arguments: same)
    func sameBothWays(text: String) throws {
        let c = try Self.comparison(text)
        #expect(!c.differs, "\(Self.rows(c))")
        #expect(c.lines(style: .plain, width: 80, marbles: false).last == "same: both runs printed the same events at the same times")
    }

    /// The Debounce guide: "if the base finishes, the last pending element is emitted"; Combine's
    /// `debounce` drops it (Reactive's Debounce, after Apple's documented behaviour).
    @Test("debounce: the pull run emits the pending element at the base's finish; the push run drops it")
    func debounce() throws {
        let c = try Self.comparison("interval 100ms | take 3 | debounce 150ms")
        #expect(Self.rows(c) == ["+0.000s  subscribed | +0.000s  subscribed", "≠ - | +0.300s  value 2", "+0.300s  finished | +0.300s  finished"])
        #expect(c.reasons.count == 1 && c.reasons[0].hasPrefix("debounce: when its base finishes"))
        let lines = c.lines(style: .plain, width: 100)
        #expect(lines.contains("differs: 1 line (marked ≠)"))
        #expect(lines.contains { $0.hasPrefix("≠ ") && $0.hasSuffix("+0.300s  value 2") })
        // Both diagrams in one, on one time axis: the debounce lanes end at the same column.
        let push = try #require(lines.first { $0.contains("push debounce 150ms") })
        let pull = try #require(lines.first { $0.contains("pull debounce 150ms") })
        #expect(push.hasSuffix("^-----|") && pull.hasSuffix("^-----(2|)"))
        #expect(push.firstIndex(of: "^") == pull.firstIndex(of: "^"))
    }

    /// The Throttle guide: the async throttle measures from the last element it emitted; Combine's
    /// throttle (`latest: false`) emits the first value of each interval on the scheduler.
    @Test("throttle: the pull run measures from its last emission")
    func throttle() throws {
        let c = try Self.comparison("interval 100ms | take 5 | throttle 250ms")
        #expect(
            Self.rows(c) == [
                "+0.000s  subscribed | +0.000s  subscribed", "+0.100s  value 0 | +0.100s  value 0", "≠ +0.350s  value 1 | +0.400s  value 1",
                "≠ +0.600s  value 3 | +0.650s  value 4", "≠ +0.600s  finished | +0.650s  finished",
            ])
        // take's lanes agree, throttle's differ: only throttle's reason is given.
        #expect(c.reasons.count == 1 && c.reasons[0].hasPrefix("throttle:"))
    }

    /// Reference article 002: the stream bridge's sink asks for everything and buffers; `values`
    /// asks for one element per `next()`, and the interval drops the ticks nobody asked for.
    @Test("a slow consumer: stream buffers everything, stream newest 1 keeps the latest, values slows the source")
    func slowConsumer() throws {
        let unbounded = try Self.comparison("interval 10ms | take 5 | stream | asyncMap delay 100ms")
        #expect(unbounded.plan.mode == .bridges)
        #expect(unbounded.rows.compactMap(\.push).filter { $0.contains("value") } == (0...4).map { "+0.\($0 + 1)10s  value \($0)" })
        #expect(unbounded.rows.compactMap(\.pull).filter { $0.contains("value") }.count == 5)
        #expect(unbounded.rows.compactMap(\.pull).contains("+0.220s  value 11"))
        let newest = try Self.comparison("interval 10ms | take 5 | stream newest 1 | asyncMap delay 100ms")
        #expect(newest.rows.compactMap(\.push) == ["+0.000s  subscribed", "+0.110s  value 0", "+0.210s  value 4", "+0.210s  finished"])
        #expect(newest.reasons == [newest.plan.reasons[0].text])
    }

    @Test("throttle latest: true behaves the same on both sides here (the package's default)")
    func throttleLatest() throws {
        #expect(!(try Self.comparison("interval 100ms | take 3 | throttle 250ms latest: true")).differs)
    }

    @Test("the summary after finished is not compared: the value lines already say what differs")
    func summaryStripped() {
        #expect(PipelineComparison.eventOnly("  +0.300s  finished                1 value in 300 ms") == "+0.300s  finished")
        #expect(PipelineComparison.eventOnly("  +0.100s  value 2") == "+0.100s  value 2")
        #expect(
            PipelineComparison.align(["a", "b", "c"], ["a", "x", "c", "d"]).map { "\($0.push ?? "-")\($0.pull ?? "-")" } == ["aa", "bx", "cc", "-d"])
    }

    @Test(":compare at the prompt prints both runs; a stage without a twin is E410 and nothing runs")
    func command() {
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        #expect(runner.run(text: ":compare interval 100ms | take 3 | debounce 150ms", file: "t.pipe") == .ok)
        _ = runner.finish()
        #expect(output.text.contains("pull (AsyncSequence twins)  interval 100ms | values | take 3 | debounce 150ms"))
        #expect(output.text.contains("differs: 1 line (marked ≠)"))
        let refused = CapturedOutput()
        let second = StatementRunner(options: ShellOptions(clock: .virtual), out: refused.sink, wake: WakePipe())
        _ = second.run(text: ":compare just 1 | retry 2", file: "t.pipe")
        _ = second.finish()
        #expect(!refused.text.contains("push"))
        #expect(ShellCommand.named("compare")?.completion == .pipeline)
        // The prompt's lets are made again for both runs.
        let bound = CapturedOutput()
        let third = StatementRunner(options: ShellOptions(clock: .virtual), out: bound.sink, wake: WakePipe())
        _ = third.run(text: "let ticks = interval 100ms | take 3\n:compare ticks | debounce 150ms", file: "t.pipe")
        _ = third.finish()
        #expect(bound.text.contains("pull (AsyncSequence twins)  ticks | values | debounce 150ms"), "\(bound.text)")
        #expect(bound.text.contains("differs: 1 line (marked ≠)"), "\(bound.text)")
    }

    @Test(":compare after a run: the session's `_` is made again with its values, and `_ | …` compares them")
    func afterARun() {
        // Found at the prompt: after any run, `:compare` printed E703 on both sides ("`_` has no
        // values yet") and compared two empty runs, because making `let _ = from [2]` again
        // counted its own `_` as a use of a binding with no values.
        let output = CapturedOutput()
        let runner = StatementRunner(options: ShellOptions(clock: .virtual), out: output.sink, wake: WakePipe())
        #expect(runner.run(text: "just 1 | map { $0 + 1 }\n:compare interval 100ms | take 3 | debounce 150ms", file: "t.pipe") == .ok)
        #expect(!output.text.contains("E703"), "\(output.text)")
        #expect(output.text.contains("differs: 1 line (marked ≠)"), "\(output.text)")
        #expect(runner.run(text: ":compare _ | map { $0 * 10 }", file: "t.pipe") == .ok)
        _ = runner.finish()
        #expect(!output.text.contains("E703"), "\(output.text)")
        #expect(output.text.contains("  +0.000s  value 20             +0.000s  value 20"), "\(output.text)")
    }

    // MARK: plumb compare, end to end

    static func script(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-compare-\(UUID().uuidString).pipe")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("plumb compare FILE: exit 1 when a pipeline differs, 0 when none does, lets in scope")
    func endToEnd() throws {
        let differs = try Self.script("let ticks = interval 100ms | take 3\nticks | debounce 150ms\nfrom [1, 2] | map { $0 }\n")
        defer { try? FileManager.default.removeItem(at: differs) }
        let result = try PlumbBinary.run(["compare", "--no-color", differs.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("// 2: ticks | debounce 150ms"))
        #expect(result.stdout.contains("pull (AsyncSequence twins)  ticks | values | debounce 150ms"))
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("≠ ") && $0.hasSuffix(" +0.300s  value 2") })
        #expect(result.stdout.contains("why: debounce: when its base finishes"))
        #expect(result.stdout.contains("// 3: from [1, 2] | map { $0 }"))
        let same = try Self.script("from [1, 2] | map { $0 }\n")
        defer { try? FileManager.default.removeItem(at: same) }
        let ok = try PlumbBinary.run(["compare", "--no-color", same.path])
        #expect(ok.status == 0)
        #expect(ok.stdout.hasSuffix("same: both runs printed the same events at the same times\n"))
    }

    @Test("plumb compare: E410 at the stage with exit 65 and nothing run; a missing file is 2; --svg writes one picture")
    func endToEndErrors() throws {
        let bad = try Self.script("from [1, 2] | map { $0 }\njust 1 | retry 2\n")
        defer { try? FileManager.default.removeItem(at: bad) }
        let refused = try PlumbBinary.run(["compare", bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\(bad.path):2:10: error[E410]: 'retry' has no async twin"))
        #expect(refused.stdout.isEmpty)
        #expect(try PlumbBinary.run(["compare", "/nonexistent/x.pipe"]).status == 2)
        #expect(try PlumbBinary.run(["compare"]).status == 2)
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-compare-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let script = try Self.script("interval 100ms | take 3 | debounce 150ms\n")
        defer { try? FileManager.default.removeItem(at: script) }
        #expect(try PlumbBinary.run(["compare", "--svg", svg.path, script.path]).status == 1)
        let picture = try String(contentsOf: svg, encoding: .utf8)
        #expect(picture.contains("push debounce 150ms") && picture.contains("pull debounce 150ms"))
    }
}
