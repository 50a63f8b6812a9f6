import Testing

@testable import PlumbShell

@Suite struct HelpSubcommandTests {
    @Test("plumb help takes a command, diagnostics, a diagnostic's code or name, --markdown [DIR] or --man")
    func parses() throws {
        #expect(try parsed(["help"]) == HelpSubcommand(topic: nil))
        #expect(try parsed(["help", "run"]) == HelpSubcommand(topic: "run"))
        #expect(try parsed(["help", "--help"]) == HelpSubcommand(topic: "help"))
        #expect(try parsed(["help", "diagnostics"]) == HelpSubcommand(topic: "diagnostics"))
        #expect(try parsed(["help", "E101"]) == HelpSubcommand(topic: "E101"))
        #expect(try parsed(["help", "unterminated-string"]) == HelpSubcommand(topic: "unterminated-string"))
        #expect(try parsed(["help", "flatMap"]) == HelpSubcommand(topic: "flatMap"))
        #expect(try parsed(["help", "take"]) == HelpSubcommand(topic: "take"))
        #expect(try parsed(["help", "--markdown"]) == HelpSubcommand(mode: .reference(directory: "Docs")))
        #expect(try parsed(["help", "--markdown", "out"]) == HelpSubcommand(mode: .reference(directory: "out")))
        #expect(try parsed(["help", "--man"]) == HelpSubcommand(mode: .manPage))
    }

    @Test(
        "plumb help's usage errors, with a suggestion for a near miss",
        arguments: [
            (["help", "bogus"], "no help for 'bogus' (plumb help lists the commands, plumb help diagnostics the diagnostics, :ops in the REPL the operators)"),
            (["help", "serv"], "no help for 'serv'; did you mean 'serve'?"),
            (["help", "flatMapp"], "no help for 'flatMapp'; did you mean 'flatMap'?"),
            (["help", "kinds-do-not-jion"], "no help for 'kinds-do-not-jion'; did you mean 'kinds-do-not-join'?"),
            (["help", "E999"], "no diagnostic 'E999' (plumb help diagnostics lists them)"),
            (["help", "a", "b"], "help takes at most one COMMAND"),
            (["help", "--man", "x"], "help --man takes nothing else"),
            (["help", "--markdown", "a", "b"], "help --markdown takes at most one folder"),
            (["run", "--man", "x.pipe"], "--man is an option of help"),
        ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help help shows three forms; plumb --help also the manual page's")
    func help() {
        #expect(HelpText.command("help").hasPrefix("plumb help [COMMAND | OPERATOR]\nplumb help diagnostics | ID\nplumb help --markdown [DIR]\n\n"))
        #expect(HelpText.overview.contains("\n  plumb help --man                   this text as a manual page"))
    }
}
