import Foundation
import PipeLanguage
import PlumbDiagrams

#if canImport(Glibc)
import Glibc
#endif

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
        var options = ShellOptions()
        options.clock = .virtual
        options.keepsDiagrams = true
        options.showsWarnings = false
        // The runner flushes its sink as it goes: into an unlinked temporary file, read back after.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-example-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        unlink(path)
        let out = OutputSink(fd: fd)
        let runner = StatementRunner(options: options, out: out, wake: WakePipe())
        _ = runner.run(text: script, file: "example")
        _ = runner.finish()
        out.flush()
        var text = ""
        if fd >= 0 {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            try? handle.seek(toOffset: 0)
            text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        }
        events = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        // A subject's example sends into a job: its run is the one to draw.
        if let last = runner.diagrams.last {
            (run, title) = (last.run, last.text)
        } else {
            run = runner.jobDiagram(1)
            title = run == nil ? nil : runner.jobs.table.text(1)
        }
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
