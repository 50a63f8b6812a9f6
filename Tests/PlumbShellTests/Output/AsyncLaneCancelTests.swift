import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A script run that ends by cancelling draws each async lane's cancel (issue 39): the stages
/// after `values` are iterated by a task, and cancelling the run cancels that task, which ends
/// their iterations when it next runs, after the run's own `cancelled`. The shell waits for
/// those ends before it draws (`RunRecorder.awaitLaneEnds`), so each async lane ends with its `!`
/// in the column of the cancel, on the virtual clock's horizon (`--until`), on Ctrl-C, and when a
/// `take` after them is done and lets its upstream go (Combine's `values` cancels its subscription
/// when its iterator is released, its documentation says: "Leaving the loop … cancels the
/// subscription"; swift-async-algorithms' guides: a sequence that is no longer iterated is not
/// asked again). Before, these lanes ended with no mark at all.
@Suite struct AsyncLaneCancelTests {
    /// The diagram's lines (the events' lines left out), at 100 columns.
    private func diagram(_ arguments: [String], _ pipeline: String) throws -> [String] {
        let path = try PlumbBinary.script(pipeline + "\n")
        let result = try PlumbBinary.run(arguments + ["run", "--marbles", path], environment: ["COLUMNS": "100"])
        #expect(result.status == 0, "\(result)")
        return Self.diagramLines(result.stdout)
    }

    static func diagramLines(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  +") && !$0.hasPrefix("^C") }
    }

    /// The lanes' first column and the nanoseconds of one column, read off the ruler and footer.
    static func scale(_ lines: [String]) throws -> (start: Int, step: Int64) {
        let ruler = try #require(lines.first { $0.hasPrefix(" ") && $0.contains("0") }, "no ruler:\n\(lines.joined(separator: "\n"))")
        let start = try #require(ruler.firstIndex(of: "0").map { ruler.distance(from: ruler.startIndex, to: $0) })
        let footer = try #require(lines.first { $0.contains("1 column = ") }, "no footer:\n\(lines.joined(separator: "\n"))")
        let words = try #require(footer.components(separatedBy: "1 column = ").last?.split(separator: " "))
        let number = try #require(words.first.flatMap { Double($0) }, "\(footer)")
        let unit: Double = words.count > 1 && words[1].hasPrefix("ms") ? 1e6 : words.count > 1 && words[1].hasPrefix("s") ? 1e9 : 1e6
        return (start, Int64(number * unit))
    }

    /// The column of the lane's cancel mark (`!`, or the `(` of the group holding it), and of its
    /// last value before it; nil when the lane has no `!`.
    static func cancelColumn(_ lines: [String], _ label: String) throws -> (cancel: Int, lastValue: Int?)? {
        let line = try #require(lines.first { $0.hasPrefix(label) }, "no lane \(label):\n\(lines.joined(separator: "\n"))")
        let chars = Array(line)
        let start = try scale(lines).start
        guard let bang = chars.lastIndex(of: "!"), bang >= start else { return nil }
        var groupStart: Int?
        var lastValue: Int?
        for i in chars.indices where i >= start && i < bang {
            if chars[i] == "(" { groupStart = i }
            if chars[i] == ")" { groupStart = nil }
            if chars[i].isNumber || chars[i].isLetter { lastValue = groupStart ?? i }
        }
        return (groupStart ?? bang, lastValue)
    }

    /// Asserts each of `labels` ends with a cancel at `time` (ns).
    private func expectCancels(_ lines: [String], _ labels: [String], at time: Int64) throws {
        let (start, step) = try Self.scale(lines)
        let text = lines.joined(separator: "\n")
        for label in labels {
            let mark = try #require(try Self.cancelColumn(lines, label), "lane \(label) has no cancel mark:\n\(text)")
            #expect(Int64(mark.cancel - start) * step == time, "\(label)'s cancel is not at \(time / 1_000_000) ms:\n\(text)")
        }
    }

    @Test("the virtual horizon (--until 500ms): values and map end with ! at 500 ms, as the interval does")
    func horizonAfterValues() throws {
        let lines = try diagram(["--clock", "virtual", "--until", "500ms"], "interval 100ms | values | map { $0 * 2 }")
        try expectCancels(lines, ["[0] interval 100ms", "[1] values", "[2] map { $0 * 2 }"], at: 500_000_000)
    }

    @Test("the virtual horizon on an async source: timer every and the map after it end with ! at 500 ms")
    func horizonOnTimer() throws {
        let lines = try diagram(["--clock", "virtual", "--until", "500ms"], "timer every 100ms | map { $0 * 2 }")
        try expectCancels(lines, ["[0] timer every 100ms", "[1] map { $0 * 2 }"], at: 500_000_000)
    }

    @Test("an async take done at 300 ms lets go of values and map (and values of the interval): each ends with ! there; take finishes")
    func takeLetsUpstreamGo() throws {
        let lines = try diagram(["--clock", "virtual"], "interval 100ms | values | map { $0 * 2 } | take 3")
        try expectCancels(lines, ["[0] interval 100ms", "[1] values", "[2] map { $0 * 2 }"], at: 300_000_000)
        let take = try #require(lines.first { $0.hasPrefix("[3] take 3") })
        #expect(take.hasSuffix("(4|)") && !take.contains("!"), "\(lines.joined(separator: "\n"))")
    }

    @Test("a run that finishes by itself draws no cancel on its async lanes")
    func finishedRunHasNoCancel() throws {
        let lines = try diagram(["--clock", "virtual"], "from [1, 2] | values | map { $0 * 2 }")
        for label in ["[1] values", "[2] map { $0 * 2 }"] {
            let line = try #require(lines.first { $0.hasPrefix(label) }, "\(lines.joined(separator: "\n"))")
            #expect(!line.contains("!") && line.contains("|"), "\(lines.joined(separator: "\n"))")
        }
    }

    @Test("Ctrl-C on the real clock: both async lanes end with ! in one column, at the run's end, after their last value")
    func interruptDrawsCancels() throws {
        let path = try PlumbBinary.script("timer every 40ms | map { $0 * 2 }\n")
        let running = try PlumbBinary.start(["run", "--marbles", path], environment: ["COLUMNS": "100"])
        #expect(running.waitForOutput { $0.contains("value 6\n") }, "no value before the interrupt:\n\(running.stdout)")
        running.interrupt()
        let result = try running.finish(within: 10)
        #expect(result.endedBySignal && result.status == SIGINT, "\(result)")
        let lines = Self.diagramLines(result.stdout)
        let text = result.stdout
        let start = try Self.scale(lines).start
        let timer = try #require(try Self.cancelColumn(lines, "[0] timer every 40ms"), "no cancel on the timer's lane:\n\(text)")
        let map = try #require(try Self.cancelColumn(lines, "[1] map { $0 * 2 }"), "no cancel on map's lane:\n\(text)")
        // Both lanes end in one task, at one instant (drawn at the run's end): one column.
        #expect(timer.cancel == map.cancel, "\(text)")
        // The real clock draws idle stretches collapsed (`- 40 ms -`), so columns are not linear
        // in time: the cancel's place is checked by order. It is each lane's last mark, after its
        // last value, and every value the run printed comes before it.
        let printed = text.split(separator: "\n").filter { $0.hasPrefix("  +") && $0.contains(" value ") }.count
        for (label, mark) in [("[0] timer every 40ms", timer), ("[1] map { $0 * 2 }", map)] {
            let line = Array(try #require(lines.first { $0.hasPrefix(label) }))
            #expect(mark.cancel >= (mark.lastValue ?? start), "\(label):\n\(text)")
            let after = line[(line.lastIndex(of: "!") ?? line.endIndex)...].dropFirst()
            #expect(after.allSatisfy { $0 == ")" }, "\(label): marks after the cancel:\n\(text)")
            // A value is a glyph (a digit, or a key letter); a collapsed stretch's label is not.
            let marks = String(line[start...]).replacing(#/- [0-9.]+ (ms|s|µs) -/#, with: "--")
            let values = marks.filter { $0.isNumber || $0.isLetter }
            #expect(values.count == printed, "\(label): \(values.count) values drawn before the cancel, \(printed) printed:\n\(text)")
        }
    }

    #if canImport(FoundationXML)
    @Test("the SVG: a cancel mark on every lane at the x of the horizon's last values (500 ms)")
    func svgCancelMarks() throws {
        let path = try PlumbBinary.script("interval 100ms | values | map { $0 * 2 }\n")
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("async-cancel-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let result = try PlumbBinary.run(["--clock", "virtual", "--until", "500ms", "run", "--svg", svg, path])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let reader = MarkReader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(text.prefix(400))")
        for lane in 0..<3 {
            let cancel = try #require(reader.cancels[lane], "lane \(lane) has no cancel mark:\n\(text)")
            // The value at 500 ms (the fifth: 100, 200, … 500 ms) is the lane's last: the cancel is drawn at its x.
            let last = try #require(reader.values[lane]?.last, "\(text)")
            #expect(reader.values[lane]?.count == 5 && cancel == last, "lane \(lane): cancel at \(cancel), last value at \(last)")
        }
    }

    /// Each lane's value circles' x and its cancel mark's x.
    private final class MarkReader: NSObject, XMLParserDelegate {
        var values: [Int: [Double]] = [:]
        var cancels: [Int: Double] = [:]
        private var current: (kind: String, lane: Int)?

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "g", let cls = attributes["class"], cls.hasPrefix("mark "), let lane = attributes["data-lane"].flatMap({ Int($0) }) {
                current = (String(cls.dropFirst(5)), lane)
            } else if element == "circle", let current, let cx = attributes["cx"].flatMap({ Double($0) }) {
                switch current.kind {
                case "value": values[current.lane, default: []].append(cx)
                case "cancel": cancels[current.lane] = cx
                default: break
                }
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "g" { current = nil }
        }
    }
    #endif
}
