import Testing

@testable import PlumbShell

@Suite struct LspSubcommandTests {
    @Test("plumb lsp takes no operands")
    func parses() throws {
        #expect(try parsed(["lsp"]) == LspSubcommand())
        #expect(throws: UsageError(message: "lsp takes no operands")) { try CommandLineParser.parse(["lsp", "x"]) }
    }

    @Test("plumb help lsp describes the language server and its exit codes")
    func help() {
        #expect(HelpText.command("lsp").hasPrefix("plumb lsp\n\nThe Language Server Protocol"))
    }
}
