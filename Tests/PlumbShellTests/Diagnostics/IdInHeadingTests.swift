import Foundation
import PipeLanguage
import Testing

@testable import PlumbServer
@testable import PlumbShell

/// Every error plumb prints carries its id where a compiler puts it (`error[E302]: …`, as rustc
/// prints `error[E0308]`), followed by one line that says how to read the id's explanation, so a
/// learner can find it (issue 40).
@Suite struct IdInHeadingTests {
    @Test("a script's error: error[E302] in the heading, then `plumb help E302`; plumb test's FAIL line names it too")
    func scriptAndTest() throws {
        let path = try PlumbBinary.script("just 1 | retyr 3\n", name: "typo")
        let run = try PlumbBinary.run(["--clock", "virtual", "run", path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.hasPrefix("\(path):1:10: error[E302]: unknown operator 'retyr'\n"), "\(run)")
        #expect(run.stderr.hasSuffix("help: did you mean 'retry'?\nfor more about this error, run `plumb help E302`\n"), "\(run)")
        let test = try PlumbBinary.run(["--clock", "virtual", "test", path])
        #expect(test.stdout.contains("FAIL \(path):1: error[E302]: unknown operator 'retyr'"), "\(test)")
        #expect(test.stderr.contains("for more about this error, run `plumb help E302`"), "\(test)")
        // What the line names is there to read.
        let help = try PlumbBinary.run(["help", "E302"])
        #expect(help.status == 0 && help.stdout.contains("unknown-operator"), "\(help)")
    }

    @Test("plumb test FOLDER: a file checked in a child still shows its diagnostics on standard error")
    func testFolder() throws {
        let folder = try PlumbBinary.folder(["a.pipe": "just 1 | retyr 3\n", "b.pipe": "just 1\nexpect values [1]\n"])
        let test = try PlumbBinary.run(["--clock", "virtual", "test", folder])
        #expect(test.stdout.contains("FAIL \(folder)/a.pipe:1: error[E302]: unknown operator 'retyr'"), "\(test)")
        #expect(test.stdout.contains("PASS \(folder)/b.pipe"), "\(test)")
        #expect(test.stderr.contains("a.pipe:1:10: error[E302]: unknown operator 'retyr'\n"), "\(test)")
        #expect(test.stderr.hasSuffix("help: did you mean 'retry'?\nfor more about this error, run `plumb help E302`\n"), "\(test)")
    }

    @Test("piped statements: each batch of errors says once where every id it shows is explained")
    func severalIds() throws {
        let result = try PlumbBinary.run(["--clock", "virtual"], input: "just 1 | retyr 3 | mapp { $0 }\n")
        #expect(result.stderr.contains("error[E302]: unknown operator 'retyr'"), "\(result)")
        #expect(result.stderr.components(separatedBy: "for more about").count == 2, "\(result)")
    }

    @Test("the REPL names :help ID, which it can run; the shell's own errors carry their id")
    func shellMessages() {
        let message = ShellMessage.noSuchJob("no job 7")
        #expect(
            message.rendered(at: SourceLocation(file: "<repl>", line: 1, column: 1), interactive: true, color: false)
                == "error[E703]: no job 7\nfor more about this error, type `:help E703`\n")
    }

    @Test("the room sends the id's explanation with the diagnostic, and its page heads it error[ID]")
    func room() {
        let text = "just 1 | retyr 3"
        let session = Session(runtime: Runtime(clock: .virtual))
        let diagnostic = session.compile(text, file: "01-map.pipe").diagnostics[0]
        guard case .object(let fields) = ServeWorker.describe(diagnostic, in: text) else {
            Issue.record("not an object")
            return
        }
        #expect(
            fields["rendered"]
                == .string("01-map.pipe:1:10: error[E302]: unknown operator 'retyr'\njust 1 | retyr 3\n         ^~~~~\nhelp: did you mean 'retry'?"))
        guard case .string(let explanation)? = fields["explanation"] else {
            Issue.record("no explanation: \(fields)")
            return
        }
        #expect(explanation.hasPrefix("E302  unknown-operator  (checker)"), "\(explanation)")
        #expect(Assets.commonScript.contains("d.severity + '[' + d.id + ']: '"))
    }
}

/// `plumb lsp` links each code to its section of Diagnostics.md, which `plumb help --markdown`
/// writes: every id under a heading whose anchor the link names.
@Suite struct DiagnosticsReferenceTests {
    @Test("Diagnostics.md has a section per id, with its explanation; the lsp's link finds the repository's copy")
    func sections() throws {
        let text = OperatorReference.explanations()
        for id in DiagnosticID.everyLayer {
            #expect(text.contains("\n## \(id.code) \(id.name)\n"), "\(id)")
        }
        #expect(text.contains("## E302 unknown-operator\n\nAn error, found by the checker"), "\(text.prefix(600))")
        let binary = try #require(PlumbBinary.url, "build plumb first")
        let link = try #require(LspSubcommand.explanationLink(executable: binary.path), "no Docs/Diagnostics.md above \(binary.path)")
        let id = try #require(DiagnosticID.named("E302"))
        let href = try #require(link(id))
        #expect(href.hasSuffix("/Docs/Diagnostics.md#e302-unknown-operator"), "\(href)")
        #expect(href.hasPrefix("file:///"), "\(href)")
    }
}

/// A run-time failure the language raised is printed with its id where the event line says
/// `failed` (`failed[E602]: …`, as a compile error's `error[E302]`), so `plumb help E602` can be
/// found; a user's own `fail "…"` has no id and prints `failed: …` (issue 40).
@Suite struct FailedEventIdTests {
    static let script = "from [10, 0] | map { 100 / $0 }\nfail \"boom\"\n"

    @Test("plumb run, and the REPL reading statements: failed[E602] for division by zero, failed: for fail \"boom\"")
    func runAndRepl() throws {
        let run = try PlumbBinary.run(["--clock", "virtual", "run", try PlumbBinary.script(Self.script)])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("  +0.000s  value 10\n  +0.000s  failed[E602]: "), "\(run)")
        #expect(run.stdout.contains("failed: boom "), "\(run)")
        let repl = try PlumbBinary.run(["--clock", "virtual"], input: Self.script)
        #expect(repl.stdout.contains("failed[E602]: "), "\(repl)")
        #expect(repl.stdout.contains("failed: boom "), "\(repl)")
        let help = try PlumbBinary.run(["help", "E602"])
        #expect(help.status == 0 && help.stdout.hasPrefix("E602"), "\(help)")
    }

    @Test("plumb test and plumb learn: the expectation's `got` names the id of the failure")
    func testAndLearn() throws {
        let text = "from [10, 0] | map { 100 / $0 }\nexpect values [10, 20]\n"
        let test = try PlumbBinary.run(["--clock", "virtual", "test", try PlumbBinary.script(text)])
        #expect(test.status == 1, "\(test)")
        #expect(test.stdout.contains("got values [10], then failed[E602] \""), "\(test)")
        let learn = try PlumbBinary.run(["learn", "--once", try PlumbBinary.folder(["01-try.pipe": text])])
        #expect(learn.status == 1, "\(learn)")
        #expect(learn.stdout.contains("got values [10], then failed[E602] \""), "\(learn)")
        // A `fail` of the user's: no id.
        let own = try PlumbBinary.run(["--clock", "virtual", "test", try PlumbBinary.script("fail \"boom\"\nexpect values [1]\n")])
        #expect(own.stdout.contains("got values [], then failed \"boom\""), "\(own)")
    }

    @Test("the room: the event carries the id, and the page writes failed[E602]: as the shell does")
    func room() throws {
        // The room's worker: plumb with PLUMB_SERVE_WORKER=run, the learner's text on its input,
        // its output into a pipe as the server reads it (it may write no file).
        let result = try PlumbBinary.shell(
            #"PLUMB_SERVE_WORKER=run PLUMB_SERVE_NAME=01-map.pipe "$PLUMB" | cat"#, input: "from [10, 0] | map { 100 / $0 }\n")
        #expect(result.stdout.contains(#""event":"failed""#) && result.stdout.contains(#""id":"E602""#), "\(result)")
        #expect(Assets.commonScript.contains("'failed[' + event.id + ']: '"))
    }
}
