import Foundation
import PipeLanguage
import PlumbJSON
import Testing

@testable import PlumbLanguageServer

/// JSON-RPC 2.0 error codes (jsonrpc.org/specification §5.1) and LSP's ServerNotInitialized (-32002).
@Suite struct MessageHandlingTests {
    private func errorCode(_ reply: JSON?) -> Int? { reply?["error"]?["code"]?.int }

    @Test("bad messages get JSON-RPC errors: parse error, invalid request, method not found")
    func badMessages() {
        let client = TestClient()
        #expect(errorCode(client.send("{not json").first) == -32700)
        #expect(errorCode(client.send("[1, 2]").first) == -32600)
        #expect(errorCode(client.send(#"{"id": 3, "method": "shutdown"}"#).first) == -32600)
        #expect(client.send(#"{"id": 3, "method": "shutdown"}"#).first?["id"] == 3)
        #expect(errorCode(client.send(#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}"#).first) == -32600)
        #expect(errorCode(client.send(#"{"jsonrpc": "2.0", "id": 4}"#).first) == -32600)
        #expect(errorCode(client.request("textDocument/noSuchMethod")) == -32601)
        #expect(errorCode(client.request("textDocument/hover", ["textDocument": ["uri": "file:///nope"], "position": ["line": 0, "character": 0]])) == -32602)
        #expect(errorCode(client.request("textDocument/hover", 42)) == -32602)
    }

    @Test("an unknown notification and a response to nothing are ignored, without a reply")
    func ignored() {
        let client = TestClient()
        #expect(client.notify("$/somethingNew").isEmpty)
        #expect(client.send(#"{"jsonrpc": "2.0", "id": 9, "result": null}"#).isEmpty)
    }

    @Test("a request before initialize is refused with ServerNotInitialized; a second initialize is invalid")
    func initializeFirst() {
        let client = TestClient(initialize: false)
        #expect(errorCode(client.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///a"]])) == -32002)
        #expect(client.request("initialize")["result"]?["capabilities"]?["positionEncoding"] == "utf-16")
        #expect(errorCode(client.request("initialize")) == -32600)
    }

    @Test("exit after shutdown is code 0; exit without shutdown is code 1; requests after shutdown are invalid")
    func exitCodes() {
        let polite = TestClient()
        #expect(polite.request("shutdown")["result"] == .null)
        #expect(errorCode(polite.request("textDocument/hover")) == -32600)
        #expect(polite.server.exitCode == nil)
        _ = polite.notify("exit")
        #expect(polite.server.exitCode == 0)

        let abrupt = TestClient()
        #expect(abrupt.server.exitCodeAtEndOfInput == 1)
        _ = abrupt.notify("exit")
        #expect(abrupt.server.exitCode == 1)
    }

    @Test("diagnostics on open carry severity, the id as code and help as related information; a fix clears them")
    func diagnosticsAndClearing() throws {
        let client = TestClient()
        client.open("just 1 | retyr 3")
        let diagnostic = try #require(client.publishedDiagnostics().first)
        #expect(diagnostic["severity"] == 1)
        #expect(diagnostic["code"] == "E302")
        #expect(diagnostic["message"] == "unknown operator 'retyr'")
        #expect(diagnostic["relatedInformation"]?.array?.first?["message"] == "help: did you mean 'retry'?")
        client.change("just 1 | filter { $0 > 0 }")
        #expect(client.publishedDiagnostics().isEmpty)
        #expect(client.server.publishPendingDiagnostics().isEmpty, "nothing changed since")
    }

    @Test("1,000 changes in a burst are compiled once, with the last text's diagnostics and version")
    func burst() throws {
        let client = TestClient()
        client.open("just 1")
        _ = client.publishedDiagnostics()
        for i in 1...1_000 { client.change(i % 2 == 0 ? "just \(i) | retyr 3" : "just \(i)") }
        let published = client.server.publishPendingDiagnostics()
        #expect(published.count == 1)
        #expect(published.first?["params"]?["version"] == .int(client.version))
        let diagnostic = try #require(published.first?["params"]?["diagnostics"]?.array?.first)
        #expect(diagnostic["range"]?["start"]?["character"] == 12)
    }

    @Test("a 1 MB document gets its diagnostic at the right line")
    func largeDocument() throws {
        let client = TestClient()
        let line = "from [1, 2, 3] | map { $0 * 2 } | filter { $0 > 2 }\n"
        let count = 1_048_576 / line.utf8.count + 1
        client.open(String(repeating: line, count: count) + "just \"€\" | retyr 3\n")
        let diagnostics = client.publishedDiagnostics()
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["range"]?["start"] == ["line": .int(count), "character": 11])
    }

    @Test("closing a document clears its diagnostics at once")
    func close() {
        let client = TestClient()
        client.open("just 1 | retyr 3")
        let replies = client.notify("textDocument/didClose", ["textDocument": ["uri": .string(client.uri)]])
        #expect(replies.first?["params"]?["diagnostics"] == [])
        #expect(client.server.publishPendingDiagnostics().isEmpty)
    }

    @Test("a fix-it is a quick fix whose edit fixes the text")
    func quickFix() throws {
        let client = TestClient()
        client.open("let n = just \"😀\"\nn | retyr 3")
        let actions = try #require(
            client.request(
                "textDocument/codeAction",
                [
                    "textDocument": ["uri": .string(client.uri)],
                    "range": ["start": ["line": 1, "character": 5], "end": ["line": 1, "character": 5]], "context": ["diagnostics": []],
                ])["result"]?.array)
        let action = try #require(actions.first)
        #expect(action["kind"] == "quickfix")
        #expect(action["title"] == "Replace 'retyr' with 'retry'")
        let edit = try #require(action["edit"]?["changes"]?[client.uri]?.array?.first)
        #expect(edit == ["range": ["start": ["line": 1, "character": 4], "end": ["line": 1, "character": 9]], "newText": "retry"])
    }

    @Test("hover: an operator's signature, summary, Combine equivalent and example; a binding's type")
    func hover() throws {
        let client = TestClient()
        client.open("let ticks = from [1, 2] | map { $0 * 2 }\nticks | scan 0 { $0 + $1 }\n:trace on")
        let scan = try #require(client.request("textDocument/hover", client.at(1, 10))["result"]?["contents"]?["value"]?.string)
        let entry = try #require(Catalog.entry(named: "scan"))
        #expect(scan.contains(entry.summary) && scan.contains(entry.combine) && scan.contains("```pipe\n\(entry.example)\n```"))
        let binding = try #require(client.request("textDocument/hover", client.at(1, 2))["result"]?["contents"]?["value"]?.string)
        // `$0 * 2` can overflow, so the binding can fail (as `:type` says).
        #expect(binding.contains("`AnyPublisher<Int, Error>`"))
        let command = try #require(client.request("textDocument/hover", client.at(2, 2))["result"]?["contents"]?["value"]?.string)
        #expect(command.contains("traces"))
        #expect(client.request("textDocument/hover", client.at(0, 3))["result"] == .null)
    }

    @Test("completion: operators after |, sources and bindings at a statement's start, :commands on a command line")
    func completion() throws {
        let client = TestClient()
        client.open("let ticks = just 1\nticks | ma\nju\n:tr")
        func labels(_ line: Int, _ character: Int) -> Set<String> {
            Set(client.request("textDocument/completion", client.at(line, character))["result"]?.array?.compactMap { $0["label"]?.string } ?? [])
        }
        let afterPipe = labels(1, 10)
        #expect(afterPipe.contains("map") && afterPipe.contains("sink") && !afterPipe.contains("just"))
        let start = labels(2, 2)
        #expect(start.contains("just") && start.contains("ticks") && start.contains("let") && !start.contains("map"))
        #expect(labels(3, 3) == [":help", ":trace"])
        let map = client.request("textDocument/completion", client.at(1, 10))["result"]?.array?.first { $0["label"] == "map" }
        #expect(map?["documentation"]?["value"]?.string?.contains(Catalog.entry(named: "map")!.summary) == true)
    }

    @Test("document symbols are the let bindings; a use goes to its let (the one before it)")
    func symbolsAndDefinition() throws {
        let client = TestClient()
        client.open("let d = just 1\nlet d = d | map { $0 + 1 }\nd | sink")
        let symbols = try #require(client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(client.uri)]])["result"]?.array)
        #expect(symbols.map { $0["name"] } == ["d", "d"])
        #expect(symbols.first?["detail"] == "AnyPublisher<Int, Never>")
        let inner = client.request("textDocument/definition", client.at(1, 8))["result"]
        #expect(inner?["range"]?["start"] == ["line": 0, "character": 4])
        let outer = client.request("textDocument/definition", client.at(2, 0))["result"]
        #expect(outer?["range"]?["start"] == ["line": 1, "character": 4])
    }

    @Test("an unknown :command is the shell's error at its name, with the closest command as a quick fix")
    func unknownCommand() throws {
        let client = TestClient()
        client.open("just 1\n  :trcae on\n:t off\n:help")
        let diagnostics = client.publishedDiagnostics()
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic["code"] == "E701")
        #expect(diagnostic["message"] == "unknown command ':trcae'; did you mean ':trace'?")
        #expect(diagnostic["range"] == ["start": ["line": 1, "character": 3], "end": ["line": 1, "character": 8]])
        let actions = client.request(
            "textDocument/codeAction",
            ["textDocument": ["uri": .string(client.uri)], "range": diagnostic["range"]!, "context": ["diagnostics": []]])["result"]
        #expect(actions?.array?.first?["edit"]?["changes"]?[client.uri] == [["range": diagnostic["range"]!, "newText": "trace"]])
    }

    @Test("inlay hints: each stage's output type after it, as :type shows it")
    func inlayHints() throws {
        let client = TestClient()
        client.open("from [1, 2] | map { \"n\\($0)\" } | count")
        let hints = try #require(
            client.request(
                "textDocument/inlayHint",
                [
                    "textDocument": ["uri": .string(client.uri)], "range": ["start": ["line": 0, "character": 0], "end": ["line": 1, "character": 0]],
                ])["result"]?.array)
        #expect(hints.map { $0["label"] } == ["→ Int", "→ String", "→ Int"])
    }

    @Test("a note that points at text is related information at that text; help and other notes at the diagnostic")
    func notesAsRelatedInformation() throws {
        let client = TestClient()
        client.open("let n = just 1\nn.send 2")
        let diagnostic = try #require(client.publishedDiagnostics().first)
        #expect(diagnostic["code"] == "E313")
        let related = try #require(diagnostic["relatedInformation"]?.array)
        #expect(related.map { $0["message"] } == ["note: 'n' was bound here"])
        #expect(related.first?["location"]?["range"] == ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 5]])
    }

    @Test("inlay hints read Session's stage types: a zip is a Swift tuple, as :type shows it")
    func inlayHintsAreTypes() throws {
        let client = TestClient()
        client.open("let t = from [1, 2]\nt | zip (from [\"a\", \"b\"])")
        let hints = try #require(
            client.request(
                "textDocument/inlayHint",
                [
                    "textDocument": ["uri": .string(client.uri)], "range": ["start": ["line": 1, "character": 0], "end": ["line": 2, "character": 0]],
                ])["result"]?.array)
        #expect(hints.map { $0["label"] } == ["→ Int", "→ (Int, String)", "→ String"])
    }
}
