import Foundation
import Testing

@testable import PlumbShell

/// `plumb learn` and `plumb serve` without a folder (issue 40: outside the repository they said
/// "Examples/workshop is not a folder of exercises", naming a folder the person never typed).
@Suite struct WorkshopFolderTests {
    /// A fresh temporary folder with `files` (relative paths) in it.
    static func folder(_ files: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-folder-\(UUID().uuidString)")
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "just 1\nexpect values [1]\n".write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.path
    }

    @Test("a folder named on the command line is used as given")
    func named() throws {
        let here = WorkshopFolder(currentDirectory: try Self.folder([]), executable: nil)
        #expect(try here.resolve("some/where").get() == "some/where")
    }

    @Test("the current folder when it holds exercises, before the repository's")
    func currentFolder() throws {
        let root = try Self.folder(["01-map.pipe", "Examples/workshop/01-map.pipe"])
        #expect(try WorkshopFolder(currentDirectory: root, executable: nil).resolve(nil).get() == ".")
    }

    @Test("the repository's Examples/workshop under the current folder")
    func repository() throws {
        let root = try Self.folder(["README.md", "Examples/workshop/01-map.pipe"])
        #expect(try WorkshopFolder(currentDirectory: root, executable: nil).resolve(nil).get() == "Examples/workshop")
    }

    @Test("the installed exercises beside the binary (PREFIX/share/plumb/workshop for PREFIX/bin/plumb)")
    func installed() throws {
        let prefix = try Self.folder(["share/plumb/workshop/01-map.pipe", "bin/plumb"])
        let elsewhere = try Self.folder([])
        let found = try WorkshopFolder(currentDirectory: elsewhere, executable: prefix + "/bin/plumb").resolve(nil).get()
        #expect(
            URL(fileURLWithPath: found).resolvingSymlinksInPath().path == URL(fileURLWithPath: prefix + "/share/plumb/workshop").resolvingSymlinksInPath().path)
    }

    @Test("none: the problem says what to type, not a folder the person never named")
    func none() throws {
        let elsewhere = try Self.folder(["notes.txt"])
        let result = WorkshopFolder(currentDirectory: elsewhere, executable: elsewhere + "/bin/plumb").resolve(nil)
        guard case .failure(let problem) = result else {
            Issue.record("found \(result)")
            return
        }
        #expect(problem.message.hasPrefix("no exercises here"))
        #expect(problem.message.contains("plumb learn DIR"))
        #expect(problem.message.contains("Scripts/install"))
        #expect(!problem.message.contains("is not a folder of exercises"))
    }
}
