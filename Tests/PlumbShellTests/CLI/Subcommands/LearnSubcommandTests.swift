import Testing

@testable import PlumbShell

@Suite struct LearnSubcommandTests {
    @Test("plumb learn takes a folder (Examples/workshop by default), --once, or --reset FILE")
    func parses() throws {
        #expect(try parsed(["learn"]) == LearnSubcommand(mode: .workshop(directory: nil, once: false)))
        #expect(try parsed(["learn", "--once", "W"]) == LearnSubcommand(mode: .workshop(directory: "W", once: true)))
        #expect(try parsed(["learn", "--reset", "W/01-a.pipe"]) == LearnSubcommand(mode: .reset("W/01-a.pipe")))
    }

    @Test(
        "plumb learn's usage errors",
        arguments: [
            (["learn", "a", "b"], "learn takes at most one folder"),
            (["learn", "--once", "--reset", "x"], "learn --reset takes one FILE and nothing else"),
            (["learn", "--reset", "x", "y"], "learn --reset takes one FILE and nothing else"),
            (["run", "--once", "x.pipe"], "--once is an option of learn"),
            (["run", "--reset", "y", "x.pipe"], "--reset is an option of learn"),
        ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("plumb help learn shows its three forms")
    func help() {
        #expect(HelpText.command("learn").hasPrefix("plumb learn [DIR]\nplumb learn --once [DIR]\nplumb learn --reset FILE\n\nWalks you"))
    }
}
