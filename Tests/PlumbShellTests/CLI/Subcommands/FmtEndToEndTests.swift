import Foundation
import PipeLanguage
import Testing

@Suite struct FmtEndToEndTests {
    private static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("plumb fmt - formats standard input to standard output")
    func standardInput() throws {
        let result = try PlumbBinary.run(["fmt", "-"], input: "just 1|map{$0+1}  # one\n\n\n")
        #expect(result.status == 0)
        #expect(result.stdout == "just 1 | map { $0 + 1 } # one\n")
    }

    @Test("plumb fmt FILE rewrites it in place; --check lists what would change and exits 1")
    func inPlaceAndCheck() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let messy = folder.appendingPathComponent("messy.pipe")
        let tidy = folder.appendingPathComponent("tidy.pipe")
        try "from [1,2]|sink\n".write(to: messy, atomically: true, encoding: .utf8)
        try "from [1, 2] | sink\n".write(to: tidy, atomically: true, encoding: .utf8)
        let check = try PlumbBinary.run(["fmt", "--check", folder.path])
        #expect(check.status == 1)
        #expect(check.stdout == messy.path + "\n")
        let format = try PlumbBinary.run(["fmt", messy.path, tidy.path])
        #expect(format.status == 0)
        #expect(try String(contentsOf: messy, encoding: .utf8) == "from [1, 2] | sink\n")
        #expect(try PlumbBinary.run(["fmt", "--check", folder.path]).status == 0)
    }

    @Test("a script with errors is left alone, with its first error and exit code 65")
    func refusesErrors() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.pipe")
        let text = "just 1|map { $0 + }\n"
        try text.write(to: bad, atomically: true, encoding: .utf8)
        let result = try PlumbBinary.run(["fmt", bad.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(bad.path):1:"))
        #expect(result.stderr.contains("not formatted: it has errors"))
        #expect(try String(contentsOf: bad, encoding: .utf8) == text)
        #expect(try PlumbBinary.run(["fmt"]).status == 2)
    }

    /// Examples whose events the virtual clock makes repeatable.
    static let examples = ["Examples/tour.pipe", "Examples/expect.pipe", "Examples/subjects.pipe", "Examples/time.pipe", "Examples/async.pipe"]

    @Test("every example, laid out badly and formatted, runs with the same events", arguments: examples)
    func keepsMeaning(example: String) throws {
        let original = try String(contentsOf: PlumbBinary.packageRoot.appendingPathComponent(example), encoding: .utf8)
        // Laid out badly, meaning kept: pipes at line ends, commas and spaces astray.
        let tree = SyntaxTree(original)
        var messy = ""
        for (index, token) in tree.tokens.enumerated() {
            var gap = (index > 0 ? tree.tokens[index - 1].trailingTrivia : []).map(\.text).joined() + token.leadingTrivia.map(\.text).joined()
            if gap == " " { gap = index > 0 && tree.tokens[index - 1].text == "|" ? "\n      " : "   " }
            if gap.isEmpty, token.text == "," { gap = " " }
            messy += gap + token.text
        }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = folder.appendingPathComponent("before.pipe")
        let after = folder.appendingPathComponent("after.pipe")
        try messy.write(to: before, atomically: true, encoding: .utf8)
        let formatted = try PlumbBinary.run(["fmt", "-"], input: messy)
        #expect(formatted.status == 0, "\(formatted.stderr)")
        try formatted.stdout.write(to: after, atomically: true, encoding: .utf8)
        let ran = try PlumbBinary.run(["run", "--clock", "virtual", "--no-color", before.path])
        let ranFormatted = try PlumbBinary.run(["run", "--clock", "virtual", "--no-color", after.path])
        #expect(ran.status == ranFormatted.status)
        // The events (lines with a time); a background job's echo of its text shows the layout.
        func timed(_ output: String) -> [String] {
            output.replacingOccurrences(of: "before.pipe", with: "after.pipe").components(separatedBy: "\n")
                .filter { $0.contains("s  ") && $0.contains("+") }
        }
        let events = timed(ran.stdout)
        let formattedEvents = timed(ranFormatted.stdout)
        #expect(events == formattedEvents)
        #expect(!events.isEmpty)
    }
}
