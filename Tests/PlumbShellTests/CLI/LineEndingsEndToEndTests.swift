import Foundation
import Testing

@testable import PlumbShell

/// A script saved with CRLF line endings (an editor on Windows, a file from a browser's text
/// field) is the same script as with LF: its `:commands` are recognised, its statements run, and
/// `plumb check` and `plumb fmt` read it alike. Every reader splits lines by one rule
/// (`LineIndex.lines(of:)`).
@Suite struct LineEndingsEndToEndTests {
    static let script = """
        # doubles
        let xs = from [1, 2, 3]
        :type xs
        let doubled = xs | map { $0 * 2 }
        :type doubled
        doubled
            | sink

        """

    private static func write(_ text: String, name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-crlf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a CRLF script runs exactly as the LF one: :type is a command, let and the pipeline run")
    func runsAlike() throws {
        let lf = try Self.write(Self.script, name: "lf.pipe")
        let crlf = try Self.write(Self.script.replacingOccurrences(of: "\n", with: "\r\n"), name: "crlf.pipe")
        defer {
            try? FileManager.default.removeItem(at: lf.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: crlf.deletingLastPathComponent())
        }
        let one = try PlumbBinary.run(["run", "--clock", "virtual", lf.path])
        let other = try PlumbBinary.run(["run", "--clock", "virtual", crlf.path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("doubled  -> Int, Failure: Error"), "\(one.stdout)")
        #expect(one.stdout.contains("value 6"), "\(one.stdout)")
        #expect(other.status == one.status, "\(other.stderr)")
        #expect(other.stdout == one.stdout)
        #expect(other.stderr == one.stderr.replacingOccurrences(of: lf.path, with: crlf.path))
    }

    @Test("plumb check and plumb fmt agree on a CRLF script and its LF twin")
    func checkAndFormatAlike() throws {
        let crlfText = Self.script.replacingOccurrences(of: "\n", with: "\r\n")
        let crlf = try Self.write(crlfText, name: "crlf.pipe")
        defer { try? FileManager.default.removeItem(at: crlf.deletingLastPathComponent()) }
        // `:type` is the shell's in both, as when they run (plumb check compiled `:` lines as
        // the language's: E218 for every script with a command, LF or CRLF).
        let check = try PlumbBinary.run(["check", crlf.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "ok \(crlf.path) (3 statements)\n")
        let lf = try PlumbBinary.run(["check", "-"], input: Self.script)
        #expect(lf.status == 0, "\(lf.stderr)")
        #expect(lf.stdout == "ok - (3 statements)\n")
        // fmt formats both to the same text, but for the line endings it keeps.
        let fromLF = try PlumbBinary.run(["fmt", "-"], input: Self.script)
        let fromCRLF = try PlumbBinary.run(["fmt", "-"], input: crlfText)
        #expect(fromLF.status == 0, "\(fromLF.stderr)")
        #expect(fromCRLF.status == 0, "\(fromCRLF.stderr)")
        #expect(fromCRLF.stdout.replacingOccurrences(of: "\r\n", with: "\n") == fromLF.stdout)
        #expect(fromLF.stdout.contains(":type doubled\n"))
    }

    @Test("an exercise saved with CRLF has the same lesson and hints")
    func exerciseReader() {
        let text = "# 01 · map\n#\n# Doubles.\n# hint: map\n\njust 1 | map { todo }\n"
        let lf = Exercise(path: "01-map.pipe", text: text)
        let crlf = Exercise(path: "01-map.pipe", text: text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(crlf.lesson == lf.lesson)
        #expect(crlf.hints == lf.hints)
        #expect(lf.hints == ["map"])
    }
}
