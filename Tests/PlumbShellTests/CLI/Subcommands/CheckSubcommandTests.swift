import Testing

@testable import PlumbShell

@Suite struct CheckSubcommandTests {
    @Test("plumb check takes files and the global options")
    func parses() throws {
        #expect(try parsed(["check", "x.pipe"]) == CheckSubcommand(files: ["x.pipe"]))
        #expect(try parsed(["check", "x.pipe", "--no-color"], as: CheckSubcommand.self)?.global.noColor == true)
    }

    @Test("plumb check needs a file; --program is swift's")
    func refuses() {
        #expect(throws: UsageError(message: "check needs a FILE")) { try CommandLineParser.parse(["check"]) }
        #expect(throws: UsageError(message: "--program is an option of swift")) { try CommandLineParser.parse(["check", "--program", "x.pipe"]) }
    }

    @Test("plumb help check describes it")
    func help() {
        #expect(HelpText.command("check").hasPrefix("plumb check FILE...\n\nParses and statically checks"))
    }
}
