import Testing
import PlumbDiagrams

@Suite struct MarbleTextTests {
    private func render(_ run: MarbleRun, width: Int = 80) -> [String] {
        MarbleText.render(run, width: width, color: false)
    }

    /// The row of the lane labelled `label` (the label and its padding dropped).
    private func lane(_ lines: [String], _ label: String, _ run: MarbleRun, width: Int = 80) -> String? {
        let layout = MarbleLayout(run, width: width)
        guard let line = lines.first(where: { $0.hasPrefix(label) }) else { return nil }
        return String(line.dropFirst(layout.labelWidth))
    }

    @Test("the issue's example prints exactly")
    func example() {
        let lines = render(.example)
        let expected = [
            "                        0   200 400 ms",
            "[0] interval 100ms      ^-0-1-2-(3!)",
            "[1] take 4              ^-0-1-2-(3|)",
            "[2] map { $0 * 2 }      ^-0-2-4-(6|)",
            "[3] filter { $0 > 2 }   ^-----4-(6|)",
            "                        1 column = 50 ms; a group ( ) is one instant",
        ]
        #expect(lines == expected, "Expected:\(joined(expected))Actual:\(joined(lines))")
    }

    @Test("events in one column form a group at that column's time; its text runs on, the columns stay times, the lanes aligned")
    func grouping() {
        var run = MarbleRun()
        let a = run.addLane(label: "a")
        let b = run.addLane(label: "b")
        for lane in [a, b] { run.record(.subscribed, lane: lane, at: 0) }
        run.value("1", lane: a, at: ms(100))
        run.value("2", lane: a, at: ms(100))
        run.value("1", lane: b, at: ms(100))
        for lane in [a, b] {
            run.value("3", lane: lane, at: ms(200))
            run.record(.finished, lane: lane, at: ms(200))
        }
        let lines = render(run)
        let expected = [
            "        0    100  200 ms",
            "[0] a   ^----(12)-(3|)",
            "[1] b   ^----1----(3|)",
            "        1 column = 20 ms; a group ( ) is one instant, at its start",
        ]
        #expect(lines == expected, "Expected:\(joined(expected))Actual:\(joined(lines))")
    }

    @Test("a group of more than four events shows its first, … and its last")
    func longGroup() {
        var run = MarbleRun()
        let a = run.addLane(label: "from 1...9")
        run.record(.subscribed, lane: a, at: 0)
        for n in 1...9 { run.value("\(n)", lane: a, at: 0) }
        run.record(.finished, lane: a, at: 0)
        #expect(lane(render(run), "[0]", run) == "^(1…|)")
    }

    @Test("long values get key letters and a legend; the same text always gets the same key")
    func keys() {
        let lines = render(Samples.longValues)
        #expect(lane(lines, "[0]", Samples.longValues) == "^---a---b---c---d---a---(x|)")
        #expect(lane(lines, "[1]", Samples.longValues) == "^---a---b---c---d---a---x-!")
        #expect(lines.contains("a=\"hello\"  b=10  c=[1, 2]  d=\"<a & b>\""))
        // `x` is one character: drawn as itself, with no legend entry.
        #expect(lines.allSatisfy { !$0.contains("=x") })
    }

    @Test("keys skip letters that are drawn as one-character values")
    func keysSkipValueLetters() {
        var run = MarbleRun()
        let a = run.addLane(label: "from")
        run.record(.subscribed, lane: a, at: 0)
        for (n, text) in ["a", "long", "b", "longer", "long"].enumerated() { run.value(text, lane: a, at: ms(Double(100 * (n + 1)))) }
        run.record(.finished, lane: a, at: ms(600))
        let lines = render(run)
        #expect(lane(lines, "[0]", run) == "^-a-c-b-d-c-|")
        #expect(lines.last == "c=long  d=longer")
    }

    @Test("the tokens of the language (-^|#!()) and wide characters are never drawn as values")
    func tokenValuesGetKeys() {
        var run = MarbleRun()
        let a = run.addLane(label: "from")
        run.record(.subscribed, lane: a, at: 0)
        for (n, text) in ["-", "|", "#", "é"].enumerated() { run.value(text, lane: a, at: ms(Double(100 * (n + 1)))) }
        let lines = render(run)
        #expect(lane(lines, "[0]", run) == "^-a-b-c-d")
        #expect(lines.last == "a=-  b=|  c=#  d=é")
    }

    @Test("a long idle stretch collapses into its duration instead of a row of dashes")
    func idleCollapse() {
        let lines = render(Samples.idle)
        let row = lane(lines, "[0]", Samples.idle)
        #expect(row == "^-1-2-3- 9.7 s -(0|)")
        // Past 10,000 ms the ruler reads in seconds, each mark with its unit.
        #expect(lines[0].hasSuffix("0 s 0.2 s       10 s"))
        #expect(!lines.contains { $0.contains("----------") })
    }

    @Test("an idle stretch at the end of a live lane collapses too")
    func trailingIdle() {
        var run = MarbleRun()
        let a = run.addLane(label: "timer 10s")
        run.record(.subscribed, lane: a, at: 0)
        run.value("0", lane: a, at: ms(100))
        run.value("1", lane: a, at: ms(200))
        run.end = ms(10_000)
        #expect(lane(render(run), "[0]", run) == "^-0-1- 9.8 s -")
    }

    @Test("every line fits the width", arguments: [40, 80, 200])
    func fitsWidth(width: Int) {
        var runs = Samples.all.map(\.1)
        runs.append(Samples.large(events: 10_000, lanes: 5))
        runs.append(Samples.large(events: 400, lanes: 2))
        var many = MarbleRun()
        let a = many.addLane(label: String(repeating: "map { $0 + 1 } | ", count: 10))
        many.record(.subscribed, lane: a, at: 0)
        for n in 0..<300 { many.value("\(n)", lane: a, at: ms(Double(100 * (n + 1)))) }
        many.record(.failed(String(repeating: "a long message ", count: 20)), lane: a, at: ms(30_100))
        runs.append(many)
        for run in runs {
            let lines = render(run, width: width)
            let layout = MarbleLayout(run, width: width)
            #expect(layout.labelWidth <= width / 3)
            for line in lines {
                #expect(line.count <= width, "\(line.count) > \(width):\(joined(lines))")
            }
        }
    }

    @Test("long labels are shortened with … to the label column, a third of the width")
    func shortLabels() {
        let lines = render(Samples.inner, width: 40)
        #expect(lines[1].hasPrefix("[0] inter…   ^"))
        #expect(lines[3].hasPrefix("    ├ inn…"))
    }

    @Test("inner publishers get sub-lanes under their stage, starting where they were subscribed")
    func innerLanes() {
        let lines = render(Samples.inner)
        let rows = lines.dropFirst().prefix(4)
        #expect(rows.map { String($0.prefix(13)) } == ["[0] interval ", "[1] flatMap {", "    ├ inner 1", "    └ inner 2"])
        #expect(lane(lines, "    ├ inner 1", Samples.inner) == "     ^-------(0a|)")
        #expect(lane(lines, "    └ inner 2", Samples.inner) == "          ^-------(1a|)")
        #expect(lane(lines, "[1]", Samples.inner) == "^------------(0a)-(1a|)")
        #expect(lines.last == "a=10")
    }

    @Test("sub-lanes of sub-lanes draw the tree")
    func nestedLanes() {
        var run = MarbleRun()
        let stage = run.addLane(label: "flatMap")
        let one = run.addLane(label: "inner 1", parent: stage, kind: .inner)
        _ = run.addLane(label: "inner 1.1", parent: one, kind: .inner)
        _ = run.addLane(label: "inner 2", parent: stage, kind: .inner)
        _ = run.addLane(label: "map")
        for lane in 0..<5 { run.record(.subscribed, lane: lane, at: 0) }
        let labels = MarbleLayout(run, width: 80).rows.map(\.label)
        #expect(labels == ["[0] flatMap", "    ├ inner 1", "    │ └ inner 1.1", "    └ inner 2", "[1] map"])
    }

    @Test("a retry draws each attempt as a numbered lane, and the failure's message on a legend line")
    func retryAttempts() {
        let lines = render(Samples.retry)
        #expect(lane(lines, "    ├ #1", Samples.retry) == "^-1-#")
        #expect(lane(lines, "    ├ #2", Samples.retry) == "      ^-1-#")
        #expect(lane(lines, "    └ #3", Samples.retry) == "            ^-1-#")
        #expect(lane(lines, "[1] retry 2", Samples.retry) == "^-1-----1-----1-#")
        #expect(lines.last == "#: boom")
    }

    @Test("different failure messages name their lanes")
    func failures() {
        var run = MarbleRun()
        let a = run.addLane(label: "decode")
        let b = run.addLane(label: "catch")
        for lane in [a, b] { run.record(.subscribed, lane: lane, at: 0) }
        run.record(.failed("bad input"), lane: a, at: ms(100))
        run.record(.failed("gave up"), lane: b, at: ms(200))
        let lines = render(run)
        #expect(lane(lines, "[0]", run) == "^-#")
        #expect(lines.suffix(2) == ["#: bad input ([0] decode)", "#: gave up ([1] catch)"])
    }

    @Test("a failure the language raised names its id in the legend (#: failed[E602]: …); a user's does not (#: boom)")
    func failureIds() {
        let lines = render(Samples.failureIds)
        #expect(lines.suffix(2) == ["#: failed[E602]: division by zero: 100 / 0 ([0] map { 100 / $0 })", "#: boom ([1] fail \"boom\")"])
        // The same message with and without an id is two failures, not one.
        let twice = Samples.failures(("c", "x", 100), ("d", "x", 100))
        #expect(render(twice).suffix(2) == ["#: failed[E602]: x ([0] c)", "#: x ([1] d)"])
    }

    @Test("a cancel draws ! but never after a finish or a failure")
    func cancelVersusFinish() {
        var run = MarbleRun()
        let finished = run.addLane(label: "just 1")
        let failed = run.addLane(label: "fail")
        let cancelled = run.addLane(label: "interval 100ms")
        for lane in [finished, failed, cancelled] { run.record(.subscribed, lane: lane, at: 0) }
        run.value("1", lane: finished, at: ms(100))
        run.record(.finished, lane: finished, at: ms(200))
        run.record(.cancelled, lane: finished, at: ms(300))
        run.record(.failed("boom"), lane: failed, at: ms(200))
        run.record(.cancelled, lane: failed, at: ms(300))
        run.value("0", lane: cancelled, at: ms(100))
        run.record(.cancelled, lane: cancelled, at: ms(300))
        let lines = render(run)
        #expect(lane(lines, "[0]", run) == "^-1-|")
        #expect(lane(lines, "[1]", run) == "^---#")
        #expect(lane(lines, "[2]", run) == "^-0---!")
        #expect(!lines.contains { $0.contains("|") && $0.contains("!") })
    }

    @Test("a job's partial diagram: live lanes run to now with no end")
    func partial() {
        let lines = render(Samples.partial)
        #expect(lane(lines, "[0]", Samples.partial) == "^-0-1-2-")
        #expect(lane(lines, "[1]", Samples.partial) == "^-1-2-3-")
        #expect(lines.last == "                     1 column = 500 ms")
    }

    @Test("a lane is blank before its ^ and after its end")
    func blankOutsideTheLane() {
        var run = MarbleRun()
        let a = run.addLane(label: "a")
        let b = run.addLane(label: "b")
        run.record(.subscribed, lane: a, at: 0)
        run.record(.subscribed, lane: b, at: ms(200))
        run.record(.finished, lane: b, at: ms(400))
        run.record(.finished, lane: a, at: ms(800))
        let lines = render(run)
        #expect(lane(lines, "[0]", run) == "^-------|")
        #expect(lane(lines, "[1]", run) == "  ^-|")
    }

    @Test("colour only when asked: failures red, cancels yellow, the ruler dim")
    func colour() {
        let plain = render(Samples.retry) + render(.example)
        #expect(!plain.contains { $0.contains("\u{1B}") })
        let coloured = MarbleText.render(Samples.retry, width: 80, color: true)
        #expect(coloured[0].contains("\u{1B}[2m0\u{1B}[0m"))
        #expect(coloured.contains { $0.contains("\u{1B}[31m#\u{1B}[0m") })
        #expect(coloured.last == "\u{1B}[31m#: boom\u{1B}[0m")
        let example = MarbleText.render(.example, width: 80, color: true)
        #expect(example[1].contains("\u{1B}[33m!\u{1B}[0m"))
    }

    @Test("control characters in labels, values and messages cannot reach the terminal")
    func controlCharacters() {
        var run = MarbleRun()
        let a = run.addLane(label: "evil\u{1B}[2J")
        run.record(.subscribed, lane: a, at: 0)
        run.value("\"\u{1B}]0;pwned\u{07}\"", lane: a, at: ms(100))
        run.record(.failed("bad\nline"), lane: a, at: ms(200))
        let lines = render(run)
        #expect(!lines.contains { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
        #expect(lines.last == "#: bad line")
    }

    @Test("an empty run and a run at one instant still render")
    func degenerate() {
        #expect(render(MarbleRun()).count == 2)
        var run = MarbleRun()
        let a = run.addLane(label: "just 1")
        run.record(.subscribed, lane: a, at: 0)
        run.value("1", lane: a, at: 0)
        run.record(.finished, lane: a, at: 0)
        #expect(lane(render(run), "[0]", run) == "^(1|)")
    }

    @Test("extreme times (negative, near Int64.max, end before the events) still render within the width")
    func extremeTimes() {
        var run = MarbleRun()
        let a = run.addLane(label: "odd")
        run.record(.subscribed, lane: a, at: -5)
        run.value("1", lane: a, at: 1)
        run.value("2", lane: a, at: .max)
        run.record(.finished, lane: a, at: .max)
        run.end = 0
        for width in [40, 80] {
            let lines = render(run, width: width)
            #expect(lines.allSatisfy { $0.count <= width })
            #expect(lines[1].hasSuffix("(2|)"))
        }
    }

    @Test("on a real clock, jitter and the microseconds between stages draw like the virtual clock")
    func realClock() {
        var run = MarbleRun()
        let virtual = MarbleRun.example
        for (k, lane) in virtual.lanes.enumerated() {
            run.addLane(label: lane.label)
            for (n, event) in lane.events.enumerated() {
                // Each stage a few µs after the one above, and each tick of the timer up to 3 ms late.
                let tick = event.time / 100_000_000
                let jitter = (tick * 7 % 4) * 1_000_000
                run.record(event.event, lane: k, at: event.time + jitter + Int64(k) * 4_000 + Int64(n) * 1_000)
            }
        }
        let expected = MarbleText.render(.example, width: 80, color: false)
        let actual = MarbleText.render(run, width: 80, color: false)
        #expect(actual == expected, "Expected:\(joined(expected))Actual:\(joined(actual))")
    }

    @Test("a lane's subscription stamped after its values (a real clock) is still drawn first: ^(1|), ^a, never (1|) or (a^)")
    func subscriptionFirst() {
        var run = MarbleRun()
        let just = run.addLane(label: "just 1")
        let append = run.addLane(label: "append (just a)")
        // Stamped as the issue saw them: the `^` 5 ms after the values that it caused.
        run.record(.subscribed, lane: just, at: ms(5))
        run.value("1", lane: just, at: 0)
        run.record(.finished, lane: just, at: 0)
        run.record(.subscribed, lane: append, at: ms(105))
        run.value("a", lane: append, at: ms(100))
        run.record(.finished, lane: append, at: ms(200))
        let layout = MarbleLayout(run, width: 80)
        #expect(layout.rows[0].cells.first?.items.first == .subscribed)
        #expect(layout.rows[0].cells.map(\.text) == ["^(1|)"])
        #expect(layout.rows[1].cells.first?.items.first == .subscribed)
        #expect(!layout.rows[1].cells.map(\.text).contains("(a^)"))
        #expect(layout.rows[1].cells.first?.text == "^a")
    }
}
