import Foundation
import PipeLanguage
import Testing

/// `plumb help --markdown`: the committed Docs/ are what Plumb produces.
@Suite struct ReferenceDocsTests {
    static func files(under root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            result[String(url.path.dropFirst(root.path.count + 1))] = try Data(contentsOf: url)
        }
        return result
    }

    @Test("Docs/Operators.md and Docs/diagrams/*.svg are what `plumb help --markdown` writes (regenerate: plumb help --markdown Docs)")
    func upToDate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-reference-\(UUID().uuidString)")
        let result = try PlumbBinary.run(["help", "--markdown", directory.path])
        #expect(result.status == 0, "\(result)")
        // The catalog's `todo` example is meant: writing the reference prints no learner's warning.
        #expect(result.stderr.isEmpty, "\(result)")
        let produced = try Self.files(under: directory)
        // What `help --markdown` owns: the reference and its pictures (a stale picture of a
        // removed entry counts); other files in Docs/ (the room's screenshots) are not its.
        let committed = try Self.files(under: PlumbBinary.packageRoot.appendingPathComponent("Docs"))
            .filter { $0.key == "Operators.md" || $0.key == "Diagnostics.md" || $0.key.hasPrefix("diagrams/") }
        #expect(produced.keys.sorted() == committed.keys.sorted())
        for (path, data) in produced.sorted(by: { $0.key < $1.key }) where committed[path] != data {
            Issue.record("Docs/\(path) differs from what `plumb help --markdown` writes: run `plumb help --markdown Docs`")
        }
    }

    @Test("the reference has a section per catalog entry and a row per diagnostic id")
    func complete() throws {
        let text = try String(contentsOf: PlumbBinary.packageRoot.appendingPathComponent("Docs/Operators.md"), encoding: .utf8)
        for entry in Catalog.entries {
            #expect(text.contains("\n### \(entry.name)\n\n```\n\(entry.signature)\n```"), "\(entry.name)")
            #expect(text.contains("Combine: `\(entry.combine)`"), "\(entry.name)")
        }
        let golden = try String(contentsOf: PlumbBinary.packageRoot.appendingPathComponent("Tests/Golden/diagnostics.txt"), encoding: .utf8)
        for line in golden.split(separator: "\n") {
            let parts = line.split(separator: " ")
            #expect(text.contains("| \(parts[0]) | `\(parts[1])` | \(parts[2]) |"), "\(line)")
        }
    }

    @Test("help --markdown: a folder that cannot be made is a usage error; --markdown belongs to help")
    func badUse() throws {
        let file = try PlumbBinary.script("x")
        let result = try PlumbBinary.run(["help", "--markdown", file + "/inside"])
        #expect(result.status == 2 && result.stderr.contains("cannot write the reference"), "\(result)")
        let misplaced = try PlumbBinary.run(["run", "--markdown", file])
        #expect(misplaced.status == 2 && misplaced.stderr.contains("--markdown is an option of help"), "\(misplaced)")
    }

    @Test("help --markdown FILE (or a folder under a file) says the path is a file, not a folder, and what to type")
    func fileForFolder() throws {
        let file = try PlumbBinary.script("x")
        for path in [file, file + "/inside"] {
            let result = try PlumbBinary.run(["help", "--markdown", path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(file) is a file, not a folder"), "\(result)")
            #expect(result.stderr.contains("plumb help --markdown Docs"), "\(result)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result)")
        }
    }
}
