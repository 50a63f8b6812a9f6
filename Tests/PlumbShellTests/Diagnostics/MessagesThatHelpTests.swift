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
            #expect(result.stderr.contains("main.pipe:2:1: error[E707]: plumb swift cannot translate ':load lib.pipe'"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    @Test("a :load inside a script finds its file next to that script, and a failure names file:line")
    func nestedLoadPaths() throws {
        let folder = try PlumbBinary.folder(["main.pipe": ":load sub/a.pipe\n", "sub/a.pipe": ":load b.pipe\n:load gone.pipe\n", "sub/b.pipe": "just 2\n"])
        let result = try PlumbBinary.run(["--clock", "virtual", "run", "\(folder)/main.pipe"])
        #expect(result.stdout.contains("value 2"), "\(result)")
        #expect(result.stderr.contains("sub/a.pipe:2: error[E710]: cannot read gone.pipe: no such file"), "\(result)")
    }

    @Test("an unterminated string is an error on its line; the next line is not swallowed")
    func unterminatedString() throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: "just \"abc\njust 2\n")
        #expect(result.stderr.contains("error[E101]: unterminated string literal"), "\(result)")
        #expect(result.stdout.contains("value 2"), "\(result)")
    }

    @Test(
        "each of the hunt's unhelpful messages now says what is wrong",
        arguments: [
            ("expect nothing\n", "unknown expectation 'nothing'"),
            ("just 1\nexpect valeus [1]\n", "did you mean 'values'?"),
            ("just 1 | filter { $0 = 1 }\n", "'=' assigns, and closures cannot assign: to compare, use '=='"),
            ("just 1\u{200B}\n", "unexpected invisible character U+200B (ZERO WIDTH SPACE)"),
            ("from 1..<5\n", "half-open ranges ('..<') are not part of the language"),
            ("just 1 | delay 2x\n", "(use ns, us (or µs), ms, s, m or h)"),
            ("just nil | map { $0 + 1 }\n", "cannot apply '+' to nil and Int 1"),
        ])
    func messages(_ input: String, _ expected: String) throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: input)
        #expect((result.stdout + result.stderr).contains(expected), "\(result)")
    }

    @Test("accepted now: a UTF-8 byte order mark at the start of a script, and µs as plumb prints it")
    func accepted() throws {
        let file = try PlumbBinary.script("\u{FEFF}just 1 | delay 200µs\nexpect values [1]\nexpect time 0.2ms\n")
        let result = try PlumbBinary.run(["test", file])
        #expect(result.status == 0, "\(result)")
    }

    @Test("--svg to a directory or into a missing folder: what is wrong with the path")
    func svgPath() throws {
        let script = try PlumbBinary.script("just 1\n")
        let folder = try PlumbBinary.folder(["x.svg/keep.pipe": ""])
        let r1 = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", "\(folder)/x.svg", script])
        #expect(r1.stderr.contains("cannot write \(folder)/x.svg: is a directory"), "\(r1)")
        let r2 = try PlumbBinary.run(["--clock", "virtual", "run", "--svg", "\(folder)/none/x.svg", script])
        #expect(r2.stderr.contains("cannot write \(folder)/none/x.svg: the folder \(folder)/none does not exist"), "\(r2)")
    }
}
