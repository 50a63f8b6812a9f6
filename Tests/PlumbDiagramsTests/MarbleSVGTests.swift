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

    /// `rsvg-convert` (Debian librsvg2-bin, which `Scripts/test` installs), or nil.
    static let converter = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test("the sample is well-formed XML")
    func sampleIsWellFormed() {
        #expect(wellFormed(Self.sample))
    }

    @Test(
        "rsvg-convert turns the sample into a PNG",
        .enabled(if: converter != nil, "rsvg-convert is not installed (Debian librsvg2-bin)"))
    func sampleConverts() throws {
        let converter = try #require(Self.converter)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-diagrams-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let svgFile = directory.appendingPathComponent("sample.svg")
        try Self.sample.write(to: svgFile, atomically: true, encoding: .utf8)
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

#if canImport(FoundationXML)
/// Counts elements and notes errors (on Linux, `parse()` alone may report success for a
/// document whose tags do not balance).
private final class ErrorCatcher: NSObject, XMLParserDelegate {
    var failed = false
    var elements = 0
    var depth = 0
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements += 1
        depth += 1
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { depth -= 1 }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { failed = true }
    func parserDidEndDocument(_ parser: XMLParser) { if depth != 0 { failed = true } }
}
#endif

/// Whether `text` parses as XML (with FoundationXML's parser where it exists, else by checking
/// that the tags balance).
func wellFormed(_ text: String) -> Bool {
    #if canImport(FoundationXML)
    let parser = XMLParser(data: Data(text.utf8))
    let delegate = ErrorCatcher()
    parser.delegate = delegate
    let parsed = parser.parse()
    return parsed && parser.parserError == nil && !delegate.failed && delegate.elements > 0 && delegate.depth == 0
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

@Suite struct MarbleSVGContentTests {
    /// The contents of every `<text>` element, unescaped enough to compare.
    private func texts(_ svg: String) -> [String] {
        var out: [String] = []
        var rest = svg[...]
        while let open = rest.range(of: "<text") {
            guard let start = rest[open.upperBound...].firstIndex(of: ">"), let close = rest[start...].range(of: "</text>") else { break }
            out.append(String(rest[rest.index(after: start)..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return out
    }

    @Test("one standalone document: XML declaration, svg root with its namespace, well-formed")
    func standalone() {
        let svg = MarbleSVG.render([.example, Samples.retry], titles: ["first", "second"])
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(wellFormed(svg))
        #expect(!wellFormed("<svg><g></svg>"), "the well-formedness check must catch unbalanced tags")
        #expect(svg.components(separatedBy: "<g class=\"diagram\">").count == 3)
    }

    @Test("labels, titles, values, the legend and the axis are text elements")
    func textElements() {
        let svg = MarbleSVG.render([.example, Samples.longValues, Samples.retry], titles: ["interval 100ms | take 4", "from", "retry"])
        let all = texts(svg)
        for label in ["[0] interval 100ms", "[3] filter { $0 &gt; 2 }", "interval 100ms | take 4", "├ #1", "└ #3", "[1] retry 2"] {
            #expect(all.contains(label), "no <text> \(label)")
        }
        for value in ["0", "6", "10", "x", "a = &quot;hello&quot;", "b = [1, 2]", "c = &quot;&lt;a &amp; b&gt;&quot;", "✕ boom", "200 ms"] {
            #expect(all.contains(value), "no <text> \(value)")
        }
    }

    @Test("marbles, completion bars, error crosses and cancel marks are drawn")
    func shapes() {
        let svg = MarbleSVG.render([.example, Samples.retry], titles: [])
        func count(_ kind: String) -> Int { svg.components(separatedBy: "<g class=\"mark \(kind)\"").count - 1 }
        #expect(count("value") == 4 + 4 + 4 + 2 + 3 + 3)
        #expect(count("finished") == 3)
        #expect(svg.contains("<title>finished</title>"))
        #expect(count("failure") == 5)
        #expect(count("cancel") == 1)
        #expect(count("subscribed") == 4 + 1 + 3 + 1)
    }

    @Test("a failure's title and legend name the language's id (failed[E602]: …); a user's says failed: boom")
    func failureIds() {
        let svg = MarbleSVG.render([Samples.failureIds], titles: ["ids"])
        #expect(wellFormed(svg))
        #expect(svg.contains("<title>failed[E602]: division by zero: 100 / 0</title>"))
        #expect(svg.contains("<title>failed: boom</title>"))
        #expect(texts(svg).contains("✕ failed[E602]: division by zero: 100 / 0"))
        #expect(texts(svg).contains("✕ boom"))
    }

    @Test("hostile text is escaped: markup, quotes and characters XML forbids")
    func escaping() {
        var run = MarbleRun()
        let a = run.addLane(label: "map { \"</text><script>\" }")
        run.record(.subscribed, lane: a, at: 0)
        run.value("\"]]>&'\u{0}\u{1B}\"", lane: a, at: ms(100))
        run.record(.failed("<b>boom</b> & 'bye'"), lane: a, at: ms(200))
        let svg = MarbleSVG.render([run], titles: ["<title> & \"quotes\""])
        #expect(wellFormed(svg))
        #expect(!svg.contains("<script>"))
        #expect(!svg.unicodeScalars.contains { $0.value == 0 || $0.value == 0x1B })
        #expect(texts(svg).contains("&lt;title&gt; &amp; &quot;quotes&quot;"))
    }
}
