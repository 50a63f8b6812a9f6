import Testing

@testable import PlumbShell

@Suite struct RunSubcommandTests {
    @Test("plumb run takes files, - for standard input, and --svg OUT.svg")
    func parses() throws {
        #expect(try parsed(["run", "-"]) == RunSubcommand(files: ["-"]))
        #expect(try parsed(["run", "a.pipe", "--svg", "out.svg"]) == RunSubcommand(files: ["a.pipe"], svg: "out.svg"))
    }

    @Test(
        "plumb run without a file, or with an --svg that is not .svg, is a usage error",
        arguments: [
            (["run"], "run needs a FILE (or - for standard input)"),
            (["run", "--svg", "out.svg"], "run needs a FILE (or - for standard input)"),
            (["run", "--svg", "out.png", "x.pipe"], "--svg needs a file name ending in .svg, not 'out.png'"),
            (["check", "--svg", "out.svg", "x.pipe"], "--svg is an option of run"),
        ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help run describes it, with its exit codes")
    func help() {
        let help = HelpText.command("run")
        #expect(help.hasPrefix("plumb run FILE... | -\n\nRuns each script"))
        #expect(help.contains("EXIT CODES") && help.contains("141"))
    }
}
