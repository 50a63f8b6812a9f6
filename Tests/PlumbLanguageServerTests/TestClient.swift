import Foundation
import PipeLanguage
import PlumbJSON
import Testing

@testable import PlumbLanguageServer

/// Talks to a `LanguageServer` in-process, as a client would over the stream.
final class TestClient {
    let server: LanguageServer
    let uri = "file:///tmp/test.pipe"
    private var nextID = 1
    var version = 1

    init(
        initialize: Bool = true, exampleDiagram: (@Sendable (String) -> String?)? = nil,
        explanationLink: (@Sendable (DiagnosticID) -> String?)? = nil
    ) {
        server = LanguageServer(
            commands: [
                .init(name: "help", arguments: "[NAME]", summary: "this overview"),
                .init(name: "trace", aliases: ["t"], arguments: "on|off", summary: "traces"),
            ],
            unknownCommand: ShellLikeCode.unknownCommand.id, exampleDiagram: exampleDiagram, explanationLink: explanationLink)
        if initialize { _ = request("initialize", ["capabilities": [:]]) }
    }

    /// Sends a raw body; the replies.
    func send(_ body: String) -> [JSON] { server.handle(Data(body.utf8)) }

    /// The reply to a request (its `result` or `error`).
    @discardableResult
    func request(_ method: String, _ params: JSON = [:]) -> JSON {
        nextID += 1
        let message: JSON = ["jsonrpc": "2.0", "id": .int(nextID), "method": .string(method), "params": params]
        let replies = server.handle(Data(message.encoded.utf8))
        #expect(replies.count == 1, "one reply to \(method), got \(replies)")
        #expect(replies.first?["id"] == .int(nextID))
        return replies.first ?? .null
    }

    func notify(_ method: String, _ params: JSON = [:]) -> [JSON] {
        server.handle(Data((["jsonrpc": "2.0", "method": .string(method), "params": params] as JSON).encoded.utf8))
    }

    func open(_ text: String) {
        #expect(
            notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "pipe", "version": .int(version), "text": .string(text)]])
                .isEmpty)
    }

    func change(_ text: String) {
        version += 1
        #expect(
            notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(version)], "contentChanges": [["text": .string(text)]]])
                .isEmpty)
    }

    /// The diagnostics published now for the test document (asserts exactly one publication).
    func publishedDiagnostics() -> [JSON] {
        let published = server.publishPendingDiagnostics()
        #expect(published.count == 1)
        #expect(published.first?["params"]?["uri"] == .string(uri))
        return published.first?["params"]?["diagnostics"]?.array ?? []
    }

    func at(_ line: Int, _ character: Int, _ extra: [String: JSON] = [:]) -> JSON {
        var params: [String: JSON] = ["textDocument": ["uri": .string(uri)], "position": ["line": .int(line), "character": .int(character)]]
        params.merge(extra) { $1 }
        return .object(params)
    }
}

/// Stands for the shell's codes (`plumb lsp` passes `ShellCode.unknownCommand.id`).
enum ShellLikeCode: Int, DiagnosticCode {
    static let layer = "shell"
    case unknownCommand = 701
}
