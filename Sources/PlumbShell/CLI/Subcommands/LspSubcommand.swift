import Foundation
import PipeLanguage
import PlumbLanguageServer

/// `plumb lsp`: the language server over standard input and output.
struct LspSubcommand: PlumbSubcommand, Equatable {
    static let configuration = CommandConfiguration(
        name: "lsp", summary: "the language server for editors (LSP over standard input/output)",
        usage: [Usage(synopsis: "plumb lsp", description: ["the language server for editors (LSP over standard input/output)"])],
        discussion: """
            The Language Server Protocol over standard input and output, for editors: diagnostics
            as you type (the id as the code, linked to its explanation in Diagnostics.md, help as
            related information), fix-its as quick fixes,
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
        return StdioServer.run(
            commands: commands, unknownCommand: ShellCode.unknownCommand.id, exampleDiagram: ExampleRun.diagramText,
            explanationLink: Self.explanationLink(executable: Bundle.main.executablePath))
    }

    /// Links an id to its section of `Diagnostics.md` (`plumb help --markdown`): the installed
    /// copy (`PREFIX/share/plumb/Diagnostics.md`, put there by `Scripts/install`), else the
    /// repository's `Docs/Diagnostics.md` above a build's binary (`.build/debug/plumb`); nil when
    /// neither exists.
    static func explanationLink(executable: String?) -> (@Sendable (DiagnosticID) -> String?)? {
        guard let executable else { return nil }
        let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [bin.appendingPathComponent("../share/plumb/Diagnostics.md").standardizedFileURL]
        var folder = bin
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            candidates.append(folder.appendingPathComponent("Docs/Diagnostics.md"))
        }
        guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        let base = file.absoluteString
        return { id in base + "#" + OperatorReference.anchor(id) }
    }
}
