import Foundation
import Testing

@testable import PlumbShell

/// A script that `:load`s another may use the names it binds, after the `:load` line: `plumb
/// check` knows them, and so does the check a script gets before it runs (issue 40: both said
/// E301 unknown source or binding). Files are found as `:load` finds them, cycles end.
@Suite struct LoadedNamesTests {
    static let files = [
        "main.pipe": ":load lib/defs.pipe\nnumbers | merge offset\n",
        "lib/defs.pipe": ":load more.pipe\nlet numbers = from [1, 2]\n",
        "lib/more.pipe": "let offset = just 10\n",
    ]

    @Test("plumb check and plumb run: names bound by a loaded file (and by what it loads) are known after the :load line")
    func checkAndRun() throws {
        let folder = try PlumbBinary.folder(Self.files)
        let check = try PlumbBinary.run(["check", "\(folder)/main.pipe"])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout == "ok \(folder)/main.pipe (1 statement)\n", "\(check)")
        let run = try PlumbBinary.run(["--clock", "virtual", "run", "\(folder)/main.pipe"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("value 1\n") && run.stdout.contains("value 2\n") && run.stdout.contains("value 10\n"), "\(run)")
    }

    @Test("a name used before its :load line is still unknown; after it, known")
    func order() throws {
        let folder = try PlumbBinary.folder(["main.pipe": "offset\n:load more.pipe\noffset | map { $0 + 1 }\n", "more.pipe": "let offset = just 10\n"])
        let check = try PlumbBinary.run(["check", "\(folder)/main.pipe"])
        #expect(check.status == 65, "\(check)")
        #expect(check.stderr.contains("main.pipe:1:1: error[E301]: unknown source or binding 'offset'"), "\(check)")
        #expect(!check.stderr.contains("main.pipe:3:1: error[E301]"), "\(check)")
    }

    @Test("plumb check reports a loaded file's own errors where they are, and fails (65)")
    func loadedErrors() throws {
        let folder = try PlumbBinary.folder(["main.pipe": ":load lib.pipe\nnumbers\n", "lib.pipe": "let numbers = from [1, 2] | mapp { $0 }\n"])
        let check = try PlumbBinary.run(["check", "\(folder)/main.pipe"])
        #expect(check.status == 65, "\(check)")
        #expect(check.stderr.contains("lib.pipe:1:29: error[E302]: unknown operator 'mapp'"), "\(check)")
        #expect(!check.stdout.contains("ok "), "\(check)")
    }

    @Test("a cycle of :loads that bind names ends: check says ok, run reports the cycle")
    func cycle() throws {
        let folder = try PlumbBinary.folder(["a.pipe": ":load b.pipe\nlet x = just 1\nx\n", "b.pipe": ":load a.pipe\nlet y = just 2\n"])
        let check = try PlumbBinary.run(["check", "\(folder)/a.pipe"])
        #expect(check.status == 0, "\(check)")
        let run = try PlumbBinary.run(["--clock", "virtual", "run", "\(folder)/a.pipe"])
        #expect(run.stderr.contains("a.pipe → b.pipe → a.pipe"), "\(run)")
    }
}
