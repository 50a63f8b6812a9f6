import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Pull drawn (issue 39): an async stage's lane has a `↑` under each column where its consumer
/// called `next()`, and the SVG a small triangle at that time. Behind a slow consumer (an async
/// `asyncMap delay 100`, whose step runs inside the consumer's `next()`), `values` and article
/// 002's `stream` then look different: `values` asks its publisher for one value per `next()`
/// (Combine's `AsyncPublisher` requests `.max(1)` per call, its documentation says), so a timer
/// that cannot wait drops the ticks nobody asked for and each value comes after its pull; `stream`'s
/// sink asks for everything (`.unlimited`) and its `AsyncThrowingStream` buffers, so the timer's
/// six ticks all arrive at once and each pull is answered at once from the buffer.
@Suite struct PullMarksTests {
    private static let values = "interval 30ms | take 6 | values | asyncMap delay 100"
    private static let stream = "interval 30ms | take 6 | stream | asyncMap delay 100"

    /// The diagram's lines (the events' lines left out), at 80 columns.
    private func diagram(_ pipeline: String) throws -> [String] {
        let path = try PlumbBinary.script(pipeline + "\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", path], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  +") }
    }

    /// The lane line starting with `label`, and the `↑` line under it (nil when there is none).
    private func lane(_ lines: [String], _ label: String) throws -> (lane: [Character], pulls: [Character]?) {
        let index = try #require(lines.firstIndex { $0.hasPrefix(label) }, "no lane \(label):\n\(lines.joined(separator: "\n"))")
        let under = lines.indices.contains(index + 1) && lines[index + 1].hasPrefix(" ") && lines[index + 1].contains("↑") ? Array(lines[index + 1]) : nil
        return (Array(lines[index]), under)
    }

    private func columns(of marks: [Character]?, where test: (Character) -> Bool) -> [Int] {
        (marks ?? []).indices.filter { test(marks![$0]) }
    }

    /// The columns of a lane's values and groups (a group's column is its `(`), after `start`.
    private func eventColumns(_ lane: [Character], from start: Int) -> [Int] {
        var out: [Int] = []
        var inGroup = false
        for i in lane.indices where i >= start {
            let c = lane[i]
            if c == "(" {
                out.append(i)
                inGroup = true
            } else if c == ")" {
                inGroup = false
            } else if !inGroup && (c.isNumber || c.isLetter) {
                out.append(i)
            }
        }
        return out
    }

    /// The lanes' start column and the time of one column, read off the footer.
    private func scale(_ lines: [String]) throws -> (start: Int, step: Int) {
        let ruler = try #require(lines.first, "no ruler")
        let start = try #require(ruler.firstIndex(of: "0").map { ruler.distance(from: ruler.startIndex, to: $0) })
        let footer = try #require(lines.first { $0.contains("1 column = ") })
        let step = try #require(footer.components(separatedBy: "1 column = ").last?.split(separator: " ").first.flatMap { Int($0) })
        return (start, step)
    }

    @Test("behind a slow consumer, values: each pull waits for the timer's next tick (a value a column after its ↑), ticks nobody asked for are lost")
    func valuesWaitsAfterEachPull() throws {
        let lines = try diagram(Self.values)
        let (start, step) = try scale(lines)
        #expect(step == 20, "\(lines.joined(separator: "\n"))")
        let values = try lane(lines, "[2] values")
        let consumer = try lane(lines, "[3] asyncMap delay 100")
        let pulls = columns(of: values.pulls) { $0 == "↑" }
        // The consumer asks at 0, then as soon as its step is done: at 130, 250, 370, 490, 610
        // and 730 ms (after the last value, the pull that finds the end): the ↑s are there.
        #expect(pulls.map { ($0 - start) * step } == [0, 140, 260, 380, 500, 620, 740], "\(lines.joined(separator: "\n"))")
        let consumerValues = eventColumns(consumer.lane, from: start)
        // Each ↑ after the first is in the column of the consumer's previous value (its step ended).
        for (pull, done) in zip(pulls.dropFirst(), consumerValues) { #expect(pull == done, "\(lines.joined(separator: "\n"))") }
        // values' own values: each one column after its ↑, never in it (the request waits for a tick).
        let laneValues = eventColumns(values.lane, from: start)
        for (pull, value) in zip(pulls, laneValues) { #expect(value == pull + 1 || value == pull + 2, "\(lines.joined(separator: "\n"))") }
        // Ticks are lost: the interval lane shows 0, 4, 8, … (keys a, b, c for 12, 16, 20).
        #expect(String(try lane(lines, "[0] interval 30ms").lane).contains("^-0-----4-----8-----a"), "\(lines.joined(separator: "\n"))")
        #expect(lines.contains("↑ = a pull: the consumer called next()"), "\(lines.joined(separator: "\n"))")
    }

    @Test("behind a slow consumer, stream: every tick arrives at once, buffered; each value is given in its ↑'s column")
    func streamAnswersEachPullFromItsBuffer() throws {
        let lines = try diagram(Self.stream)
        let (start, _) = try scale(lines)
        let stream = try lane(lines, "[2] stream")
        let pulls = columns(of: stream.pulls) { $0 == "↑" }
        let laneValues = eventColumns(stream.lane, from: start).filter { stream.lane[$0].isNumber || stream.lane[$0] == "(" }
        #expect(laneValues.count == 6, "\(lines.joined(separator: "\n"))")
        // The first pull waits for the first tick; every later one finds a value waiting.
        for (pull, value) in zip(pulls.dropFirst(), laneValues.dropFirst()) { #expect(pull == value, "\(lines.joined(separator: "\n"))") }
        // The timer's six ticks all arrive before the consumer takes its second.
        #expect(String(try lane(lines, "[0] interval 30ms").lane).contains("^-01-23-4(5!)"), "\(lines.joined(separator: "\n"))")
        // Publisher stages have no pulls: a publisher is asked by demand.
        #expect(try lane(lines, "[1] take 6").pulls == nil, "\(lines.joined(separator: "\n"))")
    }

    #if canImport(FoundationXML)
    @Test("the SVG: a triangle per pull at its time's x (the consumer's value at the same instant sits at the same x), in both diagrams")
    func svgPulls() throws {
        let path = try PlumbBinary.script(Self.values + "\n" + Self.stream + "\n")
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("pulls-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", svg, path])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let reader = PullReader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(text.prefix(400))")
        #expect(reader.diagrams == 2)
        // Lane 3 (asyncMap) pulls; lane 3's values are at 130 ms, 250 ms, … (values) and each
        // later pull of lane 2 is at the same instant as one of them: the same x.
        for diagram in 0..<2 {
            let pulls = reader.pulls.filter { $0.diagram == diagram }
            #expect(pulls.count == 14, "\(pulls)")
            let values = reader.values.filter { $0.diagram == diagram && $0.lane == 3 }
            #expect(values.count == 6)
            let onLane2 = pulls.filter { $0.lane == 2 }
            for value in values.dropLast() {
                #expect(onLane2.contains { abs($0.x - value.x) < 0.6 }, "no pull on lane 2 at the consumer's value x \(value.x): \(onLane2)")
            }
            // x grows with time, at one rate: 100 ms apart is the same distance everywhere.
            let times = onLane2.map(\.time)
            #expect(times == times.sorted())
            let perNs = (onLane2.last!.x - onLane2.first!.x) / Double(onLane2.last!.time - onLane2.first!.time)
            for pull in onLane2 {
                #expect(abs(onLane2.first!.x + Double(pull.time - onLane2.first!.time) * perNs - pull.x) < 0.6, "\(onLane2)")
            }
        }
        #expect(text.contains("▲ = a pull: the consumer called next()"))
    }

    private final class PullReader: NSObject, XMLParserDelegate {
        var diagrams = 0
        var pulls: [(diagram: Int, lane: Int, time: Int64, x: Double)] = []
        var values: [(diagram: Int, lane: Int, x: Double)] = []
        private var valueLane: Int?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            let cls = attributes["class"] ?? ""
            if name == "g", cls == "diagram" { diagrams += 1 }
            if name == "g", cls == "mark value" { valueLane = Int(attributes["data-lane"] ?? "") }
            if name == "circle", let lane = valueLane, let cx = Double(attributes["cx"] ?? "") {
                values.append((diagrams - 1, lane, cx))
                valueLane = nil
            }
            if name == "path", cls == "pull" {
                let x = (attributes["d"] ?? "").split(whereSeparator: { " MLZ".contains($0) }).compactMap { Double($0) }.first ?? .nan
                pulls.append((diagrams - 1, Int(attributes["data-lane"] ?? "") ?? -1, Int64(attributes["data-time"] ?? "") ?? -1, x))
            }
        }
    }
    #endif

    @Test("pulls are not events: expect marbles on an async pipeline sees only values and completion")
    func marblesLeavePullsOut() throws {
        let script =
            "marble \"-a-b|\" | values | map { $0 }\nexpect marbles \"-a-b|\"\nmarble \"-a-b|\" | stream | asyncMap delay 100\nexpect marbles \"--a-(b|)\"\n"
        let result = try PlumbBinary.run(["--clock", "virtual", "test", try PlumbBinary.script(script)])
        #expect(result.status == 0, "\(result)")
    }

    @Test(":compare draws both runs with their pulls: the pull side's async lanes have ↑ lines, the push side's publishers none")
    func compareShowsPulls() throws {
        let path = try PlumbBinary.script("marble \"-a-b-c|\" | debounce 150ms\n")
        let result = try PlumbBinary.run(["compare", "--marbles", path], environment: ["COLUMNS": "80"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for label in ["[3] pull values", "[4] pull debounce 150ms"] {
            let (_, pulls) = try lane(lines, label)
            #expect(pulls != nil, "\(label)\n\(result)")
        }
        for label in ["[0] push marble", "[1] push debounce 150ms", "[2] pull marble"] {
            let (_, pulls) = try lane(lines, label)
            #expect(pulls == nil, "\(label)\n\(result)")
        }
        // The async debounce's last pull is where its base finished: it emits the pending "c" there.
        let (debounce, pulls) = try lane(lines, "[4] pull debounce 150ms")
        let lastPull = try #require(pulls?.lastIndex(of: "↑"))
        #expect(debounce[lastPull] == "(" && debounce[lastPull + 1] == "c", "\(result)")
        #expect(lines.contains("↑ = a pull: the consumer called next()"), "\(result)")
    }
}
