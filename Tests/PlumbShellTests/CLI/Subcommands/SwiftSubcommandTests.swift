import Testing

@testable import PlumbShell

@Suite struct SwiftSubcommandTests {
    @Test("plumb swift takes one file and --program")
    func parses() throws {
        #expect(try parsed(["swift", "x.pipe"]) == SwiftSubcommand(file: "x.pipe"))
        #expect(try parsed(["swift", "--program", "x.pipe"]) == SwiftSubcommand(file: "x.pipe", program: true))
    }

    @Test("plumb swift takes exactly one file", arguments: [["swift"], ["swift", "--program", "a", "b"]])
    func refuses(arguments: [String]) {
        #expect(throws: UsageError(message: "swift takes one FILE")) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help swift describes swift, not plumb")
    func help() {
        let help = HelpText.command("swift")
        #expect(help.hasPrefix("plumb swift [--program] FILE\n\nTranslates the script"))
        #expect(help.contains("EXIT CODES"))
    }
}
