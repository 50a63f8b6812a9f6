import PipeLanguage
import Testing

@testable import PlumbShell

/// `ExampleRun`, which hover (`plumb lsp`) and the generated reference show: what it draws is what
/// `plumb --clock virtual run --marbles` draws for the same example.
@Suite struct ExampleRunTests {
    @Test(
        "an example's diagram and events are plumb run's, on the virtual clock",
        arguments: ["retry", "scan", "debounce", "flatMap", "subject", "fail"])
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
}
