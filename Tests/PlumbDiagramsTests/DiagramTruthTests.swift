import Foundation
import Testing
import PlumbDiagrams

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The diagrams tell the truth about time: checked on generated recorded runs (random lanes,
/// times, groups, inner lanes, failures, cancels, idle stretches, widths 40–200) by reading the
/// pictures back, not by trusting the layout's own numbers.
@Suite struct DiagramTruthTests {
    @Test("SVG: every mark's x maps back to its event's time, and every tick's label matches its x", arguments: 0..<60)
    func svgTellsTime(seed: Int) throws {
        var generator = RunGenerator(seed: UInt64(seed))
        let generated = generator.run()
        let svg = MarbleSVG.render([generated.run], titles: ["generated \(seed)"])
        let picture = try #require(SVGPicture(svg).diagrams.first)
        try checkTime(picture, generated.run, seed: seed)
    }

    @Test("text: column order is time order, one instant shares a column, a periodic lane draws equal gaps", arguments: 0..<60)
    func textTellsTime(seed: Int) {
        var generator = RunGenerator(seed: UInt64(seed) &+ 1000)
        let generated = generator.run()
        let width = generator.int(in: 40...200)
        checkColumns(generated, width: width, seed: seed)
    }

    @Test("text: every event's column, read back on the ruler, is its time within one column; groups included", arguments: 0..<80)
    func textColumnsAreTimes(seed: Int) throws {
        var generator = RunGenerator(seed: UInt64(seed) &+ 9000)
        let generated = generator.run()
        let width = generator.int(in: 40...200)
        try checkTimeScale(generated.run, width: width, seed: seed)
    }

    @Test(
        "pulls (an async stage's next() calls): in the SVG each triangle's x is its time's, never in a break; in text each ↑ is under its time's column",
        arguments: 0..<40)
    func pullsTellTime(seed: Int) throws {
        var generator = RunGenerator(seed: UInt64(seed) &+ 20_000)
        var run = generator.run().run
        // Pulls on some lanes: at a value's time (the consumer asked, the value came at once) or
        // a few units before it (it waited), as a `values` or `stream` lane records them.
        var pulled = 0
        for l in run.lanes.indices where generator.chance(60) {
            for event in run.lanes[l].events {
                guard case .value = event.event else { continue }
                let wait = generator.chance(50) ? 0 : Int64(generator.int(in: 1...4)) * 10_000_000
                run.lanes[l].pulls.append(max(0, event.time - wait))
                pulled += 1
            }
        }
        let svg = MarbleSVG.render([run], titles: ["pulls \(seed)"])
        let picture = try #require(SVGPicture(svg).diagrams.first)
        let scale = try #require(picture.scale(), "seed \(seed): no scale")
        let width = generator.int(in: 60...200)
        let layout = MarbleLayout(run, width: width)
        let lines = MarbleText.render(layout, color: false)
        func ending(_ event: MarbleEvent) -> Bool {
            switch event {
            case .finished, .failed, .cancelled: return true
            default: return false
            }
        }
        // A lane's pulls as drawn: none after its end.
        func drawnPulls(_ lane: MarbleLane) -> [Int64] {
            let events = drawnEvents(lane)
            guard let last = events.last, ending(last.1.event) else { return lane.pulls }
            let end = events.map(\.1.time).max() ?? 0
            return lane.pulls.filter { $0 <= end }
        }
        for (l, lane) in run.lanes.enumerated() {
            let expected = drawnPulls(lane)
            let drawn = picture.pulls.filter { $0.lane == l }
            #expect(drawn.map(\.time).sorted() == expected.sorted(), "seed \(seed): lane \(l) pulls \(expected), drawn \(drawn.map(\.time))")
            for pull in drawn {
                #expect(abs(pull.x - scale.x(at: pull.time)) <= 0.6, "seed \(seed): pull at \(pull.time) ns at x \(pull.x), expected \(scale.x(at: pull.time))")
                #expect(!picture.breaks.contains { pull.time > $0.from && pull.time < $0.to }, "seed \(seed): a pull inside a break")
            }
        }
        // Text: the line after each row with pulls has a ↑ at each pull's column and nothing else.
        var line = 0
        for row in layout.rows {
            line += 1
            guard !row.pulls.isEmpty else { continue }
            line += 1
            let marks = Array(lines[line].dropFirst(layout.labelWidth))
            let offsets = marks.indices.filter { marks[$0] == MarbleText.pullGlyph }
            #expect(offsets == row.pulls, "seed \(seed): ↑ at \(offsets), pulls at \(row.pulls)\(joined(lines))")
            #expect(marks.allSatisfy { $0 == " " || $0 == MarbleText.pullGlyph }, "seed \(seed)\(joined(lines))")
            // Read back on the ruler as a person would, each ↑ is a pull's time within a column,
            // and every pull has its ↑.
            let times = drawnPulls(run.lanes[row.lane])
            let read = row.pulls.map { readTime(layout, at: $0) }
            for (offset, time) in zip(row.pulls, read) {
                let t = try #require(time, "seed \(seed): a ↑ inside a collapsed stretch\(joined(lines))")
                #expect(
                    times.contains { abs($0 - t) <= layout.step + slack(layout, before: offset) },
                    "seed \(seed): ↑ at \(offset) reads \(t) ns; pulls \(times)\(joined(lines))")
            }
            for time in times {
                #expect(
                    zip(row.pulls, read).contains { abs(($1 ?? -1) - time) <= layout.step + slack(layout, before: $0) },
                    "seed \(seed): no ↑ for the pull at \(time) ns\(joined(lines))")
            }
        }
        #expect(lines.contains(MarbleText.pullLegend) == (pulled > 0 && layout.rows.contains { !$0.pulls.isEmpty }), "seed \(seed)\(joined(lines))")
    }

    @Test("text: just 1 | asyncMap delay 300 draws its value at 300 ms, and the ruler has a mark past 0")
    func asyncMapExample() throws {
        var run = MarbleRun()
        let just = run.addLane(label: "just 1")
        let asyncMap = run.addLane(label: "asyncMap delay 300")
        run.record(.subscribed, lane: asyncMap, at: 0)
        run.record(.subscribed, lane: just, at: 0)
        run.value("1", lane: just, at: 0)
        run.record(.finished, lane: just, at: 0)
        run.value("1", lane: asyncMap, at: ms(300))
        run.record(.finished, lane: asyncMap, at: ms(300))
        let lines = MarbleText.render(run, width: 80, color: false)
        let expected = [
            "                         0    500 ms",
            "[0] just 1               ^(1|)",
            "[1] asyncMap delay 300   ^--(1|)",
            "                         1 column = 100 ms; a group ( ) is one instant",
        ]
        #expect(lines == expected, "Expected:\(joined(expected))Actual:\(joined(lines))")
        try checkTimeScale(run, width: 80, seed: -4)
    }

    @Test("text: a group with no room before its lane's next event is one key letter, its text in the legend")
    func crowdedGroupIsKeyed() throws {
        var run = MarbleRun()
        let lane = run.addLane(label: "from")
        run.record(.subscribed, lane: lane, at: 0)
        for n in 0..<40 {
            run.value("1", lane: lane, at: ms(Double(10 * n)))
            run.value("2", lane: lane, at: ms(Double(10 * n)))
        }
        run.record(.finished, lane: lane, at: ms(400))
        let layout = MarbleLayout(run, width: 60)
        let cells = layout.rows[0].cells
        let keyed = cells.filter { $0.key != nil }
        #expect(!keyed.isEmpty, "no keyed group: the case does not test keys")
        for cell in keyed {
            #expect(cell.text.count == 1)
            let entry = try #require(layout.legend.first { $0.key == cell.key })
            #expect(entry.text == "(12)" || entry.text == "^(12)", "legend \(entry.text)")
        }
        try checkTimeScale(run, width: 60, seed: -5)
    }

    @Test("a run too dense for the widest picture stacks its marks in sub-rows, still each at its time")
    func denseRunStacks() throws {
        let run = Samples.large(events: 4_000, lanes: 2)
        let svg = MarbleSVG.render([run], titles: [])
        #expect(svg.contains("stroke-dasharray=\"2 3\""), "no stacked instant: the case does not test stacking")
        let picture = try #require(SVGPicture(svg).diagrams.first)
        try checkTime(picture, run, seed: -3)
    }

    @Test("a 650 ms run of 1 ms ticks: the SVG is at most 1,600 px wide, says it stacked marks, and each is at its time")
    func denseRunFitsASlide() throws {
        var run = MarbleRun()
        let interval = run.addLane(label: "interval 1ms")
        let take = run.addLane(label: "take 650")
        for lane in [interval, take] { run.record(.subscribed, lane: lane, at: 0) }
        for n in 1...650 {
            for lane in [interval, take] { run.value("\(n % 10)", lane: lane, at: ms(Double(n))) }
        }
        run.record(.finished, lane: take, at: ms(650))
        run.record(.cancelled, lane: interval, at: ms(650))
        let svg = MarbleSVG.render([run], titles: ["interval 1ms | take 650"])
        let width = try #require(svg.firstMatch(of: /<svg[^>]* width="([0-9.]+)"/).flatMap { Double($0.1) })
        #expect(width <= 1_600, "\(width) px wide")
        #expect(svg.contains("Too dense to draw apart in 1600 px"), "no note about stacked marks")
        let picture = try #require(SVGPicture(svg).diagrams.first)
        try checkTime(picture, run, seed: -6)
    }

    @Test("a sparse run draws no note about density")
    func sparseRunHasNoNote() {
        #expect(!MarbleSVG.render([Self.flatMapRun], titles: []).contains("Too dense"))
    }

    @Test("the issue's first example: flatMap maxPublishers: 1 draws each event at its time")
    func flatMapExample() throws {
        let run = Self.flatMapRun
        let picture = try #require(SVGPicture(MarbleSVG.render([run], titles: ["flatMap"])).diagrams.first)
        try checkTime(picture, run, seed: -1)
        // Read back as the issue did: from's second value at 100 ms (drawn at 70 ms before), the
        // first output at 100 ms, the third at 300 ms, inner 2 subscribed at 100 ms, at the same
        // instant as inner 1's value (drawn before it before).
        let scale = try #require(picture.scale())
        func time(lane: Int, event: Int) -> Double? {
            picture.marks.first { $0.lane == lane && $0.event == event }.map { scale.time(at: $0.x) }
        }
        let tolerance = 5.5 / scale.pixelsPerMillisecond
        for (lane, event, expected) in [(0, 2, 100.0), (1, 1, 100), (1, 3, 300), (3, 0, 100), (2, 1, 100)] {
            let t = try #require(time(lane: lane, event: event))
            #expect(abs(t - expected) <= tolerance, "lane \(lane) event \(event) at \(t) ms, expected \(expected) ms")
        }
        #expect(picture.ticks.map(\.label).prefix(3) == ["0", "50 ms", "100 ms"])
    }

    @Test("the issue's second example: interval 50ms draws evenly in the terminal and the SVG")
    func intervalExample() throws {
        var run = MarbleRun()
        let interval = run.addLane(label: "interval 50ms")
        let take = run.addLane(label: "take 8")
        let scan = run.addLane(label: "scan 0 { $0 + $1 }")
        for lane in [interval, take, scan] { run.record(.subscribed, lane: lane, at: 0) }
        var sum = 0
        for n in 0..<8 {
            sum += n
            run.value("\(n)", lane: interval, at: ms(Double(50 * (n + 1))))
            run.value("\(n)", lane: take, at: ms(Double(50 * (n + 1))))
            run.value("\(sum)", lane: scan, at: ms(Double(50 * (n + 1))))
        }
        run.record(.finished, lane: scan, at: ms(400))
        run.record(.finished, lane: take, at: ms(400))
        run.record(.cancelled, lane: interval, at: ms(400))
        let lines = MarbleText.render(run, width: 80, color: false)
        let expected = [
            "                         0   100 200 300 400 ms",
            "[0] interval 50ms        ^-0-1-2-3-4-5-6-(7!)",
            "[1] take 8               ^-0-1-2-3-4-5-6-(7|)",
            "[2] scan 0 { $0 + $1 }   ^-0-1-3-6-a-b-c-(d|)",
            "                         1 column = 25 ms; a group ( ) is one instant",
            "a=10  b=15  c=21  d=28",
        ]
        #expect(lines == expected, "Expected:\(joined(expected))Actual:\(joined(lines))")
        let picture = try #require(SVGPicture(MarbleSVG.render([run], titles: [])).diagrams.first)
        try checkTime(picture, run, seed: -2)
        let ticks = picture.marks.filter { $0.lane == interval && (1...8).contains($0.event) }.map(\.x)
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        #expect(gaps.allSatisfy { abs($0 - gaps[0]) < 0.2 }, "uneven gaps \(gaps)")
    }

    @Test("rulers in plain units: ms after the last mark, seconds on every mark, 2.5 × 10ⁿ steps")
    func plainRulers() {
        var run = MarbleRun()
        let a = run.addLane(label: "interval 1s")
        run.record(.subscribed, lane: a, at: 0)
        for n in 1...6 { run.value("\(n)", lane: a, at: ms(Double(1000 * n))) }
        let seconds = MarbleText.render(run, width: 80, color: false)
        #expect(seconds[0].trimmingCharacters(in: .whitespaces).hasPrefix("0 s"), "\(joined(seconds))")
        #expect(seconds[0].contains("2 s"), "\(joined(seconds))")
        #expect(!seconds[0].contains("×"))
        let millis = MarbleText.render(.example, width: 80, color: false)
        #expect(millis[0].hasSuffix(" ms"), "\(joined(millis))")
        #expect(!millis[0].contains("×"))
    }

    @Test("a live diagram and the final one put every event in the same column while the step holds", arguments: 0..<30)
    func liveAgreesWithFinal(seed: Int) {
        var generator = RunGenerator(seed: UInt64(seed) &+ 5000)
        let generated = generator.run()
        let width = generator.int(in: 40...200)
        let final = MarbleLayout(generated.run, width: width)
        let times = Set(generated.run.lanes.flatMap { $0.events.map(\.time) }).sorted()
        for cut in times {
            let prefix = generated.run.prefix(upTo: cut)
            let live = MarbleLayout(prefix, width: width)
            guard live.step == final.step else { continue }
            for (row, liveRow) in zip(final.rows, live.rows) {
                for cell in liveRow.cells {
                    let same = row.cells.first { $0.time == cell.time }
                    #expect(same?.offset == cell.offset, "seed \(seed): at \(cell.time) live offset \(cell.offset), final \(same?.offset ?? -1)")
                }
            }
        }
    }

    // MARK: Checks

    private func checkTime(_ picture: SVGPicture.Diagram, _ run: MarbleRun, seed: Int) throws {
        let scale = try #require(picture.scale(), "seed \(seed): no scale can be read off the axis")
        // Every tick's label is its time at its x.
        for tick in picture.ticks {
            let t = try #require(SVGPicture.nanoseconds(tick.label), "seed \(seed): tick label \(tick.label)")
            #expect(abs(scale.x(at: t) - tick.x) <= 0.6, "seed \(seed): tick \(tick.label) at x \(tick.x), expected \(scale.x(at: t))")
        }
        // Breaks are idle in every lane, and say how long they last.
        for b in picture.breaks {
            for lane in run.lanes {
                #expect(!drawnEvents(lane).contains { $0.1.time > b.from && $0.1.time < b.to }, "seed \(seed): an event inside a break")
            }
            let seconds = Double(b.to - b.from) / 1e9
            let said = Double(try #require(SVGPicture.nanoseconds(b.label))) / 1e9
            #expect(abs(said - seconds) <= seconds * 0.05 + 1e-9, "seed \(seed): break labelled \(b.label) lasts \(seconds) s")
        }
        // Every drawn event has its mark, each within half a marble radius of its time's x.
        var drawn = 0
        for (l, lane) in run.lanes.enumerated() {
            let events = drawnEvents(lane)
            drawn += events.count
            for (index, event) in events {
                guard let mark = picture.marks.first(where: { $0.lane == l && $0.event == index }) else { continue }
                let expected = scale.x(at: event.time)
                #expect(abs(mark.x - expected) <= 5.5, "seed \(seed): lane \(l) event \(index) (\(event.time) ns) at x \(mark.x), expected \(expected)")
            }
        }
        #expect(picture.marks.count + picture.hidden == drawn, "seed \(seed): \(picture.marks.count) marks + \(picture.hidden) hidden for \(drawn) events")
        // One instant, one x.
        var xs: [String: Double] = [:]
        for mark in picture.marks {
            let time = run.lanes[mark.lane].events[mark.event].time
            let key = "\(mark.lane)@\(time)"
            if let x = xs[key] { #expect(abs(x - mark.x) < 0.01, "seed \(seed): one instant drawn at two x") } else { xs[key] = mark.x }
        }
    }

    /// Reads the text back as a reader does: each column is one step after the last ruler
    /// landmark (a collapsed stretch counts as the duration it says), every cell's first
    /// character is its events' time, within one column; every ruler mark sits at its time; no
    /// cell's text runs into the next cell of its lane.
    private func checkTimeScale(_ run: MarbleRun, width: Int, seed: Int) throws {
        let layout = MarbleLayout(run, width: width)
        let lines = MarbleText.render(layout, color: false)
        let step = layout.step
        func time(at offset: Int) -> Int64? {
            var origin: (offset: Int, time: Int64) = (0, 0)
            for gap in layout.gaps {
                if offset >= gap.offset && offset < gap.offset + gap.width { return nil }
                if gap.offset + gap.width <= offset {
                    let said = SVGPicture.nanoseconds(gap.text.trimmingCharacters(in: .whitespaces))
                    #expect(said != nil, "gap \(gap.text) does not say a duration")
                    origin = (gap.offset + gap.width, gap.time + (said ?? gap.duration))
                }
            }
            return origin.time + Int64(offset - origin.offset) * step
        }
        // The reader adds what a collapsed stretch says, rounded: allow its rounding too.
        func slack(before offset: Int) -> Int64 {
            layout.gaps.filter { $0.offset + $0.width <= offset }.reduce(0) { $0 + $1.duration / 20 + 1 }
        }
        for (r, row) in layout.rows.enumerated() {
            let lane = run.lanes[row.lane]
            for (k, cell) in row.cells.enumerated() {
                let read = try #require(time(at: cell.offset), "seed \(seed): a cell inside a collapsed stretch\(joined(lines))")
                let events = drawnEvents(lane).filter { ($0.1.time + step / 2) / step * step == cell.time }
                #expect(!events.isEmpty, "seed \(seed): row \(r) cell at \(cell.offset) stands for no event")
                for (_, event) in events {
                    #expect(
                        abs(read - event.time) <= step + slack(before: cell.offset),
                        "seed \(seed): row \(r) event at \(event.time) ns drawn at column \(cell.offset), read as \(read) ns (step \(step))\(joined(lines))")
                }
                if k + 1 < row.cells.count {
                    #expect(
                        cell.offset + cell.text.count <= row.cells[k + 1].offset, "seed \(seed): row \(r) group \(cell.text) runs into the next\(joined(lines))"
                    )
                }
                if cell.key != nil { #expect(layout.legend.contains { $0.key == cell.key }, "seed \(seed): key \(cell.text) not in the legend") }
            }
        }
        for mark in layout.marks {
            let said = try #require(SVGPicture.nanoseconds(layout.unit.isEmpty ? mark.text : "\(mark.text) \(layout.unit)"), "seed \(seed): mark \(mark.text)")
            #expect(said == mark.time, "seed \(seed): mark \(mark.text) for \(mark.time) ns")
            let read = try #require(time(at: mark.offset), "seed \(seed): a mark inside a collapsed stretch")
            #expect(
                abs(read - mark.time) <= slack(before: mark.offset), "seed \(seed): mark \(mark.text) at column \(mark.offset) reads \(read) ns\(joined(lines))"
            )
        }
    }

    private func checkColumns(_ generated: GeneratedRun, width: Int, seed: Int) {
        let run = generated.run
        let layout = MarbleLayout(run, width: width)
        let lines = MarbleText.render(layout, color: false)
        for line in lines { #expect(line.count <= width, "seed \(seed): a line wider than \(width)\(joined(lines))") }
        // Column order is time order, and one time is one column, across all lanes.
        var cells: [(time: Int64, offset: Int)] = []
        for row in layout.rows { for cell in row.cells { cells.append((cell.time, cell.offset)) } }
        cells.sort { ($0.time, $0.offset) < ($1.time, $1.offset) }
        for (a, b) in zip(cells, cells.dropFirst()) {
            if a.time == b.time {
                #expect(a.offset == b.offset, "seed \(seed): one column drawn at \(a.offset) and \(b.offset)\(joined(lines))")
            } else {
                #expect(a.offset < b.offset, "seed \(seed): \(a.time) after \(b.time)\(joined(lines))")
            }
        }
        // Every event is in the cell of its column (so events at one instant share it).
        for (r, row) in layout.rows.enumerated() {
            let lane = run.lanes[row.lane]
            for (_, event) in drawnEvents(lane) {
                let column = (event.time + layout.step / 2) / layout.step
                #expect(row.cells.contains { $0.time == column * layout.step }, "seed \(seed): row \(r) has no cell for \(event.time)")
            }
        }
        // A periodic lane draws equal gaps between its single-glyph ticks.
        guard let (laneIndex, period) = generated.periodic, let r = layout.rows.firstIndex(where: { $0.lane == laneIndex }) else { return }
        let step = layout.step
        let even = step <= period ? period % step == 0 : step % period == 0
        #expect(even, "seed \(seed): step \(step) does not divide the period \(period)\(joined(lines))")
        let cellsOfLane = layout.rows[r].cells.filter { $0.text.count == 1 && $0.items.first != .subscribed }
        var distances: Set<Int> = []
        for (a, b) in zip(cellsOfLane, cellsOfLane.dropFirst()) {
            distances.insert(b.offset - a.offset)
        }
        #expect(distances.count <= 1, "seed \(seed): uneven gaps \(distances.sorted()) at step \(step)\(joined(lines))")
    }

    /// A lane's events as drawn: sorted by time (stably), up to the first finish, failure or cancel.
    /// The time a person reads at `offset` in the lanes: the ruler's step per column, plus what
    /// each collapsed stretch before it says; nil inside one.
    private func readTime(_ layout: MarbleLayout, at offset: Int) -> Int64? {
        var origin: (offset: Int, time: Int64) = (0, 0)
        for gap in layout.gaps {
            if offset >= gap.offset && offset < gap.offset + gap.width { return nil }
            if gap.offset + gap.width <= offset {
                let said = SVGPicture.nanoseconds(gap.text.trimmingCharacters(in: .whitespaces))
                origin = (gap.offset + gap.width, gap.time + (said ?? gap.duration))
            }
        }
        return origin.time + Int64(offset - origin.offset) * layout.step
    }

    /// The rounding a reader's sum of collapsed stretches before `offset` may carry.
    private func slack(_ layout: MarbleLayout, before offset: Int) -> Int64 {
        layout.gaps.filter { $0.offset + $0.width <= offset }.reduce(0) { $0 + $1.duration / 20 + 1 }
    }

    private func drawnEvents(_ lane: MarbleLane) -> [(Int, MarbleEvent.Timed)] {
        let sorted = lane.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        var out: [(Int, MarbleEvent.Timed)] = []
        for (index, event) in sorted {
            out.append((index, event))
            switch event.event {
            case .finished, .failed, .cancelled: return out
            default: continue
            }
        }
        return out
    }

    /// `from [1, 2, 3] | flatMap maxPublishers: 1 { just $0 | delay 100ms }` as recorded on the
    /// virtual clock.
    static var flatMapRun: MarbleRun {
        var run = MarbleRun()
        let from = run.addLane(label: "from [1, 2, 3]")
        let flat = run.addLane(label: "flatMap maxPublishers: 1 { just $0 | delay 100ms }")
        run.record(.subscribed, lane: from, at: 0)
        run.record(.subscribed, lane: flat, at: 0)
        run.value("1", lane: from, at: 0)
        var inners: [Int] = []
        for n in 1...3 {
            let inner = run.addLane(label: "inner \(n)", parent: flat, kind: .inner)
            inners.append(inner)
            let start = ms(Double(100 * (n - 1)))
            if n > 1 { run.value("\(n)", lane: from, at: start) }
            run.record(.subscribed, lane: inner, at: start)
            run.value("\(n)", lane: inner, at: start + ms(100))
            run.value("\(n)", lane: flat, at: start + ms(100))
            run.record(.finished, lane: inner, at: start + ms(100))
        }
        run.record(.finished, lane: from, at: ms(200))
        run.record(.finished, lane: flat, at: ms(300))
        return run
    }
}

extension MarbleRun {
    /// The run as a live diagram saw it at `time`: events up to then, ending then.
    func prefix(upTo time: Int64) -> MarbleRun {
        var copy = self
        for i in copy.lanes.indices { copy.lanes[i].events.removeAll { $0.time > time } }
        copy.end = time
        return copy
    }
}

/// A generated run, and the lane that ticks with a period, if any.
struct GeneratedRun {
    var run: MarbleRun
    var periodic: (lane: Int, period: Int64)?
}

/// Recorded runs from a seed: stages, inner and attempt lanes, groups at one instant, failures,
/// cancels, events after a lane's end (which are not drawn), idle stretches, and sometimes a
/// periodic source with stages that pass its ticks on at once.
struct RunGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ percent: Int) -> Bool { int(in: 0...99) < percent }

    mutating func run() -> GeneratedRun {
        if chance(30) { return periodicRun() }
        var run = MarbleRun()
        let unit = [Int64(1_000_000), 10_000_000, 50_000_000, 100_000_000, 1_000_000_000][int(in: 0...4)]
        let stages = int(in: 1...5)
        var lanes: [Int] = []
        for s in 0..<stages {
            let stage = run.addLane(label: "stage \(s)")
            lanes.append(stage)
            if chance(30) {
                for n in 1...int(in: 1...3) { lanes.append(run.addLane(label: "inner \(n)", parent: stage, kind: chance(50) ? .inner : .attempt)) }
            }
        }
        let idleAt = chance(35) ? int(in: 2...8) : nil
        let idle = unit * Int64(int(in: 40...400))
        for lane in lanes {
            var t = unit * Int64(int(in: 0...3))
            run.record(.subscribed, lane: lane, at: t)
            let count = int(in: 0...12)
            for n in 0..<count {
                if n == idleAt { t += idle }
                if !chance(25) { t += unit * Int64(int(in: 1...6)) }
                let text = chance(20) ? "\"value \(n)\"" : "\(int(in: 0...20))"
                run.value(text, lane: lane, at: t)
            }
            switch int(in: 0...4) {
            case 0: run.record(.finished, lane: lane, at: t + (chance(50) ? 0 : unit))
            case 1: run.record(.failed("boom \(int(in: 0...2))"), lane: lane, at: t + unit)
            case 2: run.record(.cancelled, lane: lane, at: t + unit * 2)
            case 3:
                run.record(.finished, lane: lane, at: t)
                run.value("late", lane: lane, at: t + unit)  // after the end: not drawn
            default: break
            }
        }
        run.end += chance(30) ? unit * Int64(int(in: 0...300)) : 0
        return GeneratedRun(run: run, periodic: nil)
    }

    /// `interval P | take n | map …`: a periodic source and stages that pass each tick on.
    private mutating func periodicRun() -> GeneratedRun {
        let period = [10, 20, 25, 40, 50, 100, 200, 250, 500, 1000].map { Int64($0) * 1_000_000 }[int(in: 0...9)]
        var run = MarbleRun()
        let stages = int(in: 1...4)
        let lanes = (0..<stages).map { run.addLane(label: $0 == 0 ? "interval" : "map \($0)") }
        let ticks = int(in: 3...40)
        for lane in lanes { run.record(.subscribed, lane: lane, at: 0) }
        for n in 1...ticks {
            for lane in lanes { run.value("\(n % 10)", lane: lane, at: period * Int64(n)) }
        }
        let end = period * Int64(ticks)
        for (k, lane) in lanes.enumerated() { run.record(k == 0 ? .cancelled : .finished, lane: lane, at: end) }
        return GeneratedRun(run: run, periodic: (lanes[0], period))
    }
}

/// An SVG document read back: per diagram, its marks (the x of each shape's centre), its axis
/// ticks and breaks.
struct SVGPicture {
    struct Mark {
        var lane: Int
        var event: Int
        var x: Double
    }
    struct Tick {
        var x: Double
        var label: String
    }
    struct Break {
        var from: Int64
        var to: Int64
        var left: Double
        var right: Double
        var label: String
    }
    /// A pull triangle (`<path class="pull">`): its lane, the time it says, its tip's x.
    struct Pull {
        var lane: Int
        var time: Int64
        var x: Double
    }
    struct Diagram {
        var marks: [Mark] = []
        var pulls: [Pull] = []
        var ticks: [Tick] = []
        var breaks: [Break] = []
        var hidden = 0

        /// The time ↔ x mapping read off the axis: ticks and break edges as anchors, the scale
        /// from two anchors of one stretch.
        func scale() -> Scale? {
            var anchors: [(t: Int64, x: Double)] = []
            for tick in ticks { if let t = SVGPicture.nanoseconds(tick.label) { anchors.append((t, tick.x)) } }
            for b in breaks { anchors += [(b.from, b.left), (b.to, b.right)] }
            let sortedBreaks = breaks.sorted { $0.from < $1.from }
            var k: Double?
            for a in anchors {
                for b in anchors where b.t > a.t && !sortedBreaks.contains(where: { a.t < $0.to && b.t > $0.from }) {
                    k = (b.x - a.x) / Double(b.t - a.t)
                    break
                }
                if k != nil { break }
            }
            guard !anchors.isEmpty else { return nil }
            return Scale(anchors: anchors, breaks: sortedBreaks, pixelsPerNanosecond: k ?? 0)
        }
    }
    struct Scale {
        var anchors: [(t: Int64, x: Double)]
        var breaks: [Break]
        var pixelsPerNanosecond: Double
        var pixelsPerMillisecond: Double { pixelsPerNanosecond * 1e6 }

        /// The stretch between breaks that `t` is in (a break's edges belong to both sides).
        private func sameStretch(_ a: Int64, _ b: Int64) -> Bool {
            !breaks.contains { min(a, b) < $0.to && max(a, b) > $0.from }
        }

        func x(at t: Int64) -> Double {
            let anchor = anchors.filter { sameStretch($0.t, t) }.min { abs($0.t - t) < abs($1.t - t) } ?? anchors[0]
            return anchor.x + Double(t - anchor.t) * pixelsPerNanosecond
        }

        /// Milliseconds at `x` (for reading a picture as a person would).
        func time(at x: Double) -> Double {
            let anchor = anchors.min { abs($0.x - x) < abs($1.x - x) } ?? anchors[0]
            guard pixelsPerNanosecond > 0 else { return Double(anchor.t) / 1e6 }
            return (Double(anchor.t) + (x - anchor.x) / pixelsPerNanosecond) / 1e6
        }
    }

    var diagrams: [Diagram] = []

    init(_ svg: String) {
        #if canImport(FoundationXML)
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        _ = parser.parse()
        diagrams = reader.diagrams
        #endif
    }

    /// `0`, `100 ms`, `0.5 s`, `250 µs`, `9.7 s` → nanoseconds.
    static func nanoseconds(_ label: String) -> Int64? {
        let parts = label.split(separator: " ")
        guard let number = parts.first.flatMap({ Double($0) }) else { return nil }
        let unit: Double
        switch parts.count == 2 ? String(parts[1]) : "" {
        case "": unit = number == 0 ? 1 : .nan
        case "ns": unit = 1
        case "µs": unit = 1e3
        case "ms": unit = 1e6
        case "s": unit = 1e9
        default: unit = .nan
        }
        guard !unit.isNaN else { return nil }
        return Int64((number * unit).rounded())
    }

    #if canImport(FoundationXML)
    private final class Reader: NSObject, XMLParserDelegate {
        var diagrams: [Diagram] = []
        private var groups: [String] = []
        private var mark: (lane: Int, event: Int, xs: [Double])?
        private var tick: (x: Double?, label: String)?
        private var breakGroup: Break?
        private var inText = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            let cls = attributes["class"] ?? ""
            if name == "g" {
                groups.append(cls)
                switch cls {
                case "diagram": diagrams.append(Diagram())
                case let mark where mark.hasPrefix("mark "):
                    self.mark = (Int(attributes["data-lane"] ?? "") ?? -1, Int(attributes["data-event"] ?? "") ?? -1, [])
                case "tick": tick = (nil, "")
                case "break":
                    breakGroup = Break(
                        from: Int64(attributes["data-from"] ?? "") ?? 0, to: Int64(attributes["data-to"] ?? "") ?? 0,
                        left: Double(attributes["data-left"] ?? "") ?? 0, right: Double(attributes["data-right"] ?? "") ?? 0, label: "")
                default: break
                }
                return
            }
            let d = { (key: String) in Double(attributes[key] ?? "") }
            if name == "path", attributes["class"] == "pull", !diagrams.isEmpty {
                let numbers = (attributes["d"] ?? "").split(whereSeparator: { " MLZ".contains($0) }).compactMap { Double($0) }
                diagrams[diagrams.count - 1].pulls.append(
                    Pull(lane: Int(attributes["data-lane"] ?? "") ?? -1, time: Int64(attributes["data-time"] ?? "") ?? -1, x: numbers.first ?? .nan))
            }
            if mark != nil {
                switch name {
                case "circle":
                    if let cx = d("cx"), let r = d("r") { mark!.xs += [cx - r, cx + r] }
                case "line":
                    if let a = d("x1"), let b = d("x2") { mark!.xs += [a, b] }
                case "path":
                    let numbers = (attributes["d"] ?? "").split(whereSeparator: { " MLZ".contains($0) }).compactMap { Double($0) }
                    mark!.xs += stride(from: 0, to: numbers.count, by: 2).map { numbers[$0] }
                case "text":
                    if let x = d("x") { mark!.xs.append(x) }
                default: break
                }
            }
            if tick != nil, name == "line", tick!.x == nil { tick!.x = d("x1") }
            inText = name == "text" || name == "title"
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard inText else { return }
            if groups.last == "more", let count = Int(string.split(separator: " ").first ?? "") {
                diagrams[diagrams.count - 1].hidden += count
                return
            }
            if tick != nil { tick!.label += string }
            if breakGroup != nil { breakGroup!.label += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" || name == "title" { inText = false }
            guard name == "g", let cls = groups.popLast() else { return }
            switch cls {
            case let cls where cls.hasPrefix("mark "):
                if let m = mark, let lo = m.xs.min(), let hi = m.xs.max() {
                    diagrams[diagrams.count - 1].marks.append(Mark(lane: m.lane, event: m.event, x: (lo + hi) / 2))
                }
                mark = nil
            case "tick":
                if let t = tick, let x = t.x { diagrams[diagrams.count - 1].ticks.append(Tick(x: x, label: t.label)) }
                tick = nil
            case "break":
                if let b = breakGroup { diagrams[diagrams.count - 1].breaks.append(b) }
                breakGroup = nil
            default: break
            }
        }
    }
    #endif
}
