import Foundation
import Testing

/// The pictures people see: every workshop lesson's and README's diagrams as SVG, rendered by
/// `rsvg-convert` (Debian librsvg2-bin; `Scripts/test` installs it) into a temporary folder, and
/// README's text diagrams compared with what plumb prints.
@Suite struct DiagramPicturesTests {
    static let converter = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A fresh folder for this run's pictures (never in the repository).
    private static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `script`'s diagrams as an SVG (`plumb run --svg`, or `plumb compare --svg` for
    /// `command: "compare"`) and renders it as a PNG; the PNG's size in bytes.
    private static func render(_ script: String, name: String, into folder: URL, command: String = "run") throws -> Int {
        let svg = folder.appendingPathComponent("\(name).svg").path
        let arguments = command == "run" ? ["--clock", "virtual", "run", "--svg", svg, script] : [command, "--svg", svg, script]
        let result = try PlumbBinary.run(arguments, directory: PlumbBinary.packageRoot)
        #expect(result.status == 0 || result.status == 1, "\(name): \(result)")
        guard FileManager.default.fileExists(atPath: svg) else { return 0 }
        let png = folder.appendingPathComponent("\(name).png").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter!)
        process.arguments = ["-o", png, svg]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(name): rsvg-convert failed: \(message)")
        return (try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0
    }

    @Test(
        "every workshop lesson's example and solution renders as an SVG picture",
        .enabled(if: converter != nil, "rsvg-convert is not installed (Debian librsvg2-bin)"))
    func workshopPictures() throws {
        let folder = try Self.folder("workshop-pictures")
        let workshop = PlumbBinary.packageRoot.appendingPathComponent("Examples/workshop")
        let solutions = try FileManager.default.contentsOfDirectory(atPath: workshop.appendingPathComponent("solutions").path)
            .filter { $0.hasSuffix(".pipe") }.sorted()
        #expect(solutions.count >= 15)
        for name in solutions {
            let lesson = try String(contentsOf: workshop.appendingPathComponent(name), encoding: .utf8)
            // The lesson's examples: `#   PIPELINE   → RESULT` lines in its comments.
            let examples = lesson.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("#   "), let arrow = line.range(of: "→") else { return nil }
                return line[line.index(line.startIndex, offsetBy: 4)..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            let base = String(name.dropLast(5))
            let solution = workshop.appendingPathComponent("solutions/\(name)").path
            #expect(try Self.render(solution, name: base, into: folder) > 1000, "\(name)")
            for (n, example) in examples.enumerated() {
                let script = try PlumbBinary.script(example + "\n")
                // A lesson may abbreviate (`marble "-1-|"  zip (…)`): draw what is a pipeline.
                guard try PlumbBinary.run(["check", script]).status == 0 else { continue }
                #expect(try Self.render(script, name: "\(base)-example-\(n + 1)", into: folder) > 1000, "\(name): \(example)")
            }
        }
        print("workshop pictures: \(folder.path)")
    }

    @Test(
        "README's diagrams render as SVG pictures",
        .enabled(if: converter != nil, "rsvg-convert is not installed (Debian librsvg2-bin)"))
    func readmePictures() throws {
        let folder = try Self.folder("readme-pictures")
        let scripts = try Self.readmeScripts()
        #expect(!scripts.isEmpty)
        for script in scripts {
            let name = URL(fileURLWithPath: script).deletingPathExtension().lastPathComponent
            let path = PlumbBinary.packageRoot.appendingPathComponent(script).path
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            if lines.allSatisfy({ $0.hasPrefix(":swift ") }) { continue }  // Swift code: no diagram
            if lines.allSatisfy({ $0.hasPrefix(":compare ") }) {
                // `:compare P` in a script: its picture is `plumb compare --svg` of P.
                let pipelines = try PlumbBinary.script(lines.map { $0.dropFirst(":compare ".count) + "\n" }.joined())
                #expect(try Self.render(pipelines, name: name, into: folder, command: "compare") > 1000, "\(script)")
                continue
            }
            #expect(try Self.render(path, name: name, into: folder) > 1000, "\(script)")
        }
        print("README pictures: \(folder.path)")
    }

    @Test("README's diagrams are what plumb prints (Scripts/readme-diagrams --check)")
    func readmeDiagramsMatch() throws {
        let root = PlumbBinary.packageRoot.path
        let result = try PlumbBinary.shell("\"\(root)/Scripts/readme-diagrams\" --check", within: 60)
        #expect(result.status == 0, "README.md drifted from plumb's output; run Scripts/readme-diagrams\n\(result)")
    }

    /// The scripts README's `<!-- readme-diagram: FILE -->` markers name.
    static func readmeScripts() throws -> [String] {
        let readme = try String(contentsOf: PlumbBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<!-- readme-diagram: "), line.hasSuffix(" -->") else { return nil }
            return String(line.dropFirst("<!-- readme-diagram: ".count).dropLast(" -->".count))
        }
    }

    @Test("plumb's SVG of the issue's flatMap example puts from's second value and the outputs at their times")
    func flatMapAtItsTimes() throws {
        let folder = try Self.folder("flatmap")
        let svgPath = folder.appendingPathComponent("flatmap.svg").path
        let script = try PlumbBinary.script("from [1, 2, 3] | flatMap maxPublishers: 1 { just $0 | delay 100ms }\n")
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", svgPath, script])
        #expect(result.status == 0, "\(result)")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        // The axis: the x of each tick by its label.
        var ticks: [String: Double] = [:]
        for match in svg.matches(of: /<g class="tick"><line x1="([0-9.]+)"[^>]*\/><text[^>]*>([^<]+)<\/text><\/g>/) {
            ticks[String(match.2)] = Double(match.1)
        }
        let zero = try #require(ticks["0"], "\(ticks)")
        let hundred = try #require(ticks["100 ms"], "\(ticks)")
        let perMs = (hundred - zero) / 100
        func x(lane: Int, event: Int) -> Double? {
            let pattern = "data-lane=\"\(lane)\" data-event=\"\(event)\"><title>[^<]*</title><circle cx=\""
            guard let range = svg.range(of: pattern, options: .regularExpression) else { return nil }
            return Double(svg[range.upperBound...].prefix { $0 != "\"" })
        }
        // Lanes: 0 from, 1 flatMap, 2… inner 1, 2, 3; events in recorded order (^ first).
        for (lane, event, ms) in [(0, 2, 100.0), (0, 3, 200), (1, 1, 100), (1, 2, 200), (1, 3, 300)] {
            let at = try #require(x(lane: lane, event: event), "lane \(lane) event \(event)")
            #expect(abs(at - (zero + ms * perMs)) <= 5.5, "lane \(lane) event \(event) at \((at - zero) / perMs) ms, expected \(ms) ms")
        }
    }
}
