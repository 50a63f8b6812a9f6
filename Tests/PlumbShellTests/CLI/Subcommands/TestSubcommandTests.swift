import Testing

@testable import PlumbShell

@Suite struct TestSubcommandTests {
    @Test("plumb test takes paths and --report junit FILE.xml or tap, before or after")
    func parses() throws {
        #expect(try parsed(["test", "Examples/workshop/solutions"]) == TestSubcommand(paths: ["Examples/workshop/solutions"]))
        #expect(try parsed(["test", "--report", "junit", "out.xml", "x"]) == TestSubcommand(paths: ["x"], report: .junit("out.xml")))
        #expect(try parsed(["--report", "tap", "test", "x"]) == TestSubcommand(paths: ["x"], report: .tap))
    }

    @Test(
        "plumb test's usage errors",
        arguments: [
            (["test"], "test needs a FILE or folder"),
            (["test", "--report", "xml", "x"], "--report needs junit FILE.xml or tap, not 'xml'"),
            (["test", "--report", "junit", "x", "y"], "--report junit needs a file name ending in .xml, not 'x'"),
            (["test", "--report"], "--report needs a value"),
            (["test", "x", "--report", "junit"], "--report needs a value"),
            (["run", "--report", "tap", "x"], "--report is an option of test"),
        ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help test shows its three forms")
    func help() {
        #expect(HelpText.command("test").hasPrefix("plumb test PATH...\nplumb test --report junit FILE.xml PATH...\nplumb test --report tap PATH...\n\n"))
        #expect(!HelpText.overview.contains("plumb test --report"))
    }
}
