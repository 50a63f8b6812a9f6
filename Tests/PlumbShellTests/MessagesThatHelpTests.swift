import Foundation
import Testing

/// Messages that say what is wrong and what to do, and refusals instead of quiet wrong answers.
@Suite struct MessagesThatHelpTests {
    @Test("plumb swift refuses a script with :load, naming the line, instead of translating something else")
    func swiftRefusesLoad() throws {
        let folder = try PlumbBinary.folder(["main.pipe": "just 1\n:load lib.pipe\n", "lib.pipe": "just 2\n"])
        for arguments in [["swift"], ["swift", "--program"]] {
            let result = try PlumbBinary.run(arguments + ["main.pipe"], directory: URL(fileURLWithPath: folder))
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("main.pipe:2:1: error: plumb swift cannot translate ':load lib.pipe'"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    @Test("a :load inside a script finds its file next to that script, and a failure names file:line")
    func nestedLoadPaths() throws {
        let folder = try PlumbBinary.folder(["main.pipe": ":load sub/a.pipe\n", "sub/a.pipe": ":load b.pipe\n:load gone.pipe\n", "sub/b.pipe": "just 2\n"])
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "\(folder)/main.pipe"])
        #expect(result.stdout.contains("value 2"), "\(result)")
        #expect(result.stderr.contains("sub/a.pipe:2: error: cannot read gone.pipe: no such file"), "\(result)")
    }

    @Test("an unterminated string is an error on its line; the next line is not swallowed")
    func unterminatedString() throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: "just \"abc\njust 2\n")
        #expect(result.stderr.contains("error: unterminated string literal"), "\(result)")
        #expect(result.stdout.contains("value 2"), "\(result)")
    }
}
