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
