import PlumbLanguageServer

/// `plumb lsp`: the language server over standard input and output.
struct LspSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "lsp", summary: "the language server for editors (LSP over standard input/output)",
        usage: [Usage(synopsis: "plumb lsp", description: ["the language server for editors (LSP over standard input/output)"])],
        discussion: """
            The Language Server Protocol over standard input and output, for editors: diagnostics
            as you type (the id as the code, help as related information), fix-its as quick fixes,
            hover (an entry's signature, summary, Combine equivalent, example and the example's marble
            diagram; a binding's type), completion (operators after |, sources and bindings at a
            statement's start, argument labels, :commands),
            document symbols (the let bindings), go to definition, references and rename (also across
            :load'ed files), signature help, formatting (as plumb fmt) and inlay hints (each stage's
            output type). Configure the editor to start `plumb lsp` for *.pipe files (README.md).

            EXIT CODES
              0    `exit` after `shutdown`
              1    `exit`, or the end of input, without `shutdown`
            """)

    init() {}

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.operands.isEmpty else { throw UsageError(message: "lsp takes no operands") }
    }

    func run() -> Int32 {
        let commands = ShellCommand.all.map {
            LanguageServer.Command(name: $0.name, aliases: $0.aliases, arguments: $0.arguments, summary: $0.summary)
        }
        return StdioServer.run(commands: commands, unknownCommand: ShellCode.unknownCommand.id, exampleDiagram: ExampleRun.diagramText)
    }
}
