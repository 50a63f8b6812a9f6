import Testing

@testable import PlumbShell

@Suite struct ReplSubcommandTests {
    @Test("plumb and plumb repl are the REPL, with the global options")
    func parses() throws {
        var global = GlobalOptions()
        global.trace = true
        #expect(try parsed(["--trace"]) == ReplSubcommand(global: global))
        #expect(try parsed(["repl", "--trace"]) == ReplSubcommand(global: global))
    }

    @Test("the REPL takes no operands and no subcommand's options")
    func refuses() {
        #expect(throws: UsageError(message: "repl takes no operands")) { try CommandLineParser.parse(["repl", "x"]) }
        #expect(throws: UsageError(message: "--once is an option of learn")) { try CommandLineParser.parse(["--once"]) }
    }

    @Test("plumb help repl shows plumb [repl]; plumb --help shows plumb [OPTIONS] first")
    func help() {
        #expect(HelpText.command("repl").hasPrefix("plumb [repl]\n\nThe interactive shell"))
        #expect(HelpText.overview.contains("USAGE\n  plumb [OPTIONS]                    the REPL"))
    }
}
