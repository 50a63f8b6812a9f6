import PipeLanguage
import Testing

@testable import PlumbShell

/// `ExampleRun`, which hover (`plumb lsp`) and the generated reference show: what it draws is what
/// `plumb --clock virtual run --marbles` draws for the same example.
@Suite struct ExampleRunTests {
    @Test(
        "an example's diagram and events are plumb run's, on the virtual clock",
        arguments: ["retry", "scan", "debounce", "flatMap", "share", "currentValue", "fail"])
    func sameAsPlumbRun(_ name: String) throws {
        let entry = try #require(Catalog.entry(named: name))
        let example = ExampleRun(entry)
        let path = try PlumbBinary.script(example.script)
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--marbles", path])
        // ExampleRun names its script `example`, as a failure's position shows.
        let printed = result.stdout.replacingOccurrences(of: path, with: "example").split(separator: "\n").map(String.init)
        let diagram = example.diagram()
        #expect(diagram.contains { $0.contains("1 column = ") }, "\(diagram)")
        // plumb run prints the events, then the diagram (at 80 columns when not on a terminal).
        #expect(printed == example.events + diagram, "\(result.stdout)")
    }

    @Test("the hover text of every source and operator is a diagram; a terminal's example draws none of its own")
    func everyEntry() {
        for entry in Catalog.entries {
            let text = ExampleRun.diagramText(named: entry.name)
            guard entry.kind != .terminal else { continue }
            #expect(text?.contains("1 column = ") == true, "\(entry.name): \(text ?? "nil")")
        }
    }

    @Test("every example shows what its entry claims: a value or a failure drawn, unless the entry is about their absence")
    func everyExampleShowsSomething() {
        let aboutAbsence: Set = ["empty", "never", "ignoreOutput"]
        for entry in Catalog.entries where !aboutAbsence.contains(entry.name) {
            let events = ExampleRun(entry).run?.lanes.flatMap(\.events).map(\.event) ?? []
            let shows = events.contains {
                switch $0 {
                case .value, .failed: true
                default: false
                }
            }
            #expect(shows, "\(entry.name)'s example draws no value and no failure: \(entry.example)")
        }
    }

    @Test("share's example: one upstream subscription, a late subscriber sees what the first sees from then on")
    func shareExample() throws {
        let example = ExampleRun(try #require(Catalog.entry(named: "share")))
        #expect(example.events.contains("  +0.200s  value 1"), "\(example.events)")
        #expect(example.events.filter { $0 == "  +0.200s  value 1" || $0 == "  +0.300s  value 2" }.count == 4, "\(example.events)")
        #expect(!example.events.contains { $0.contains("expected") }, "\(example.events)")
    }

    @Test("subject's example draws its sends; currentValue's shows the late subscriber the latest value")
    func subjects() throws {
        let subject = ExampleRun(try #require(Catalog.entry(named: "subject")))
        #expect(subject.diagram().contains { $0.contains("(") && $0.contains("|)") }, "\(subject.diagram())")
        #expect(subject.events.contains("[1] +0.000s  value 10") && subject.events.contains("[1] +0.000s  value 20"), "\(subject.events)")
        #expect(!subject.events.contains("[1] +0.000s  value 0"), "a send before the subscription is lost: \(subject.events)")
        let current = ExampleRun(try #require(Catalog.entry(named: "currentValue")))
        #expect(current.events.contains("  +0.000s  value 5"), "\(current.events)")
    }
}
