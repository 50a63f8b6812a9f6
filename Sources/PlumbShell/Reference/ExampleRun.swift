import PipeLanguage
import PlumbDiagrams

/// A catalog entry's example, run as `plumb --clock virtual run --marbles` runs it: the events it
/// printed and the diagram of its run. The language server's hover and the generated reference
/// (`plumb help --markdown`) show these, so what they show is what Plumb does.
///
/// ```swift
/// let example = ExampleRun(Catalog.entry(named: "scan")!)
/// example.events      // ["  +0.000s  subscribed", "  +0.000s  value 1", …]
/// example.diagram     // MarbleText's lines, "[0] from [1, 2, 3] …"
/// ```
struct ExampleRun {
    /// The script that was run: the example (several lines for a binding's: the `let`, its uses,
    /// and for a subject its sends).
    let script: String
    /// What the run printed: events, notes, verdicts (no colours).
    let events: [String]
    /// The last foreground run's recording, if one ran.
    let run: MarbleRun?
    /// The pipeline that `run` drew, as written (an example of several lines draws one of them).
    let title: String?

    /// Runs `entry`'s example on a fresh virtual clock, in a runner of its own.
    init(_ entry: CatalogEntry) {
        script = Self.script(for: entry)
        let captured = CapturedRun(script: script, file: "example")
        (events, run, title) = (captured.events, captured.run, captured.title)
    }

    /// The diagram as text lines (`MarbleText`), `width` columns wide, without colours.
    func diagram(width: Int = 80) -> [String] {
        guard let run else { return [] }
        return MarbleText.render(run, width: width, color: false)
    }

    /// An entry's example as a script.
    static func script(for entry: CatalogEntry) -> String { entry.example + "\n" }

    /// The hover's diagram for the entry named `name`: the example's diagram as one text block
    /// (nil for a terminal, whose example draws nothing of its own, or an unknown name).
    @Sendable static func diagramText(named name: String) -> String? {
        guard let entry = Catalog.entry(named: name) else { return nil }
        let lines = ExampleRun(entry).diagram()
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
