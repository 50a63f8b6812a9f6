import Foundation
import Testing
import PlumbDiagrams

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct MarbleSVGTests {
    /// The sample for slides: retry attempts, an inner lane, a failure, a cancel, long values.
    static var sample: String {
        MarbleSVG.render(
            [.example, Samples.retry, Samples.inner, Samples.longValues, Samples.idle, Samples.partial],
            titles: [
                "interval 100ms | take 4 | map { $0 * 2 } | filter { $0 > 2 }",
                "tryMap { $0 > 1 ? fail(\"boom\") : $0 } | retry 2",
                "interval 100ms | take 2 | flatMap { from [$0, 10] | delay 150ms }",
                "from [\"hello\", 10, [1, 2], \"<a & b>\"] | map { $0 }",
                "merge (from [1, 2, 3]) (timer 10s)",
                "interval 1s | map { $0 + 1 }   (still running)",
            ])
    }

    @Test("the sample is well-formed XML, and rsvg-convert turns it into a PNG when it is installed")
    func sampleConverts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-diagrams-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let svgFile = directory.appendingPathComponent("sample.svg")
        try Self.sample.write(to: svgFile, atomically: true, encoding: .utf8)
        #expect(wellFormed(Self.sample))

        let converter = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let converter else { return }
        let pngFile = directory.appendingPathComponent("sample.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter)
        process.arguments = ["-o", pngFile.path, svgFile.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: pngFile.path))
        print("marble sample: \(svgFile.path) → \(pngFile.path)")
    }
}

/// Whether `text` parses as XML (with FoundationXML's parser where it exists, else by checking
/// that the tags balance).
func wellFormed(_ text: String) -> Bool {
    #if canImport(FoundationXML)
        let parser = XMLParser(data: Data(text.utf8))
        return parser.parse()
    #else
        var stack: [Substring] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return false }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") || tag.hasSuffix("/") { continue }
            let name = tag.split(separator: " ").first ?? ""
            if name.hasPrefix("/") {
                guard stack.popLast() == name.dropFirst() else { return false }
            } else {
                stack.append(name)
            }
        }
        return stack.isEmpty
    #endif
}
