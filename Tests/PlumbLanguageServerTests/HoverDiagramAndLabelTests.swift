import Foundation
import PipeLanguage
import Synchronization
import Testing

@testable import PlumbLanguageServer

/// Hover's example diagram (drawn by whoever starts the server: `plumb lsp` runs the example on
/// the virtual clock), argument-label completion from the catalog, and why there is no formatting.
@Suite struct HoverDiagramAndLabelTests {
    @Test("hover on an operator shows its example's diagram as a text block after the example, drawn once per entry")
    func hoverDiagram() throws {
        let calls = Mutex<[String]>([])
        let client = TestClient(exampleDiagram: { name in
            calls.withLock { $0.append(name) }
            return "[0] drawn for \(name)"
        })
        client.open("just 1 | retry 3\njust 2 | retry 1")
        let first = try #require(client.request("textDocument/hover", client.at(0, 10))["result"]?["contents"]?["value"]?.string)
        let entry = try #require(Catalog.entry(named: "retry"))
        #expect(first.contains("```pipe\n\(entry.example)\n```\n\nThe example on the virtual clock:\n```text\n[0] drawn for retry\n```"))
        let second = try #require(client.request("textDocument/hover", client.at(1, 10))["result"]?["contents"]?["value"]?.string)
        #expect(second == first)
        #expect(calls.withLock { $0 } == ["retry"])
    }

    @Test("an entry whose example draws nothing, or a server without a drawer, hovers without a diagram block")
    func hoverWithoutDiagram() throws {
        let none = TestClient(exampleDiagram: { _ in nil })
        none.open("just 1 | sink")
        let sink = try #require(none.request("textDocument/hover", none.at(0, 10))["result"]?["contents"]?["value"]?.string)
        #expect(sink.contains("Combine:") && !sink.contains("```text"))
        let plain = TestClient()
        plain.open("just 1 | sink")
        #expect(plain.request("textDocument/hover", plain.at(0, 10))["result"]?["contents"]?["value"]?.string == sink)
    }

    func labels(_ text: String) -> [String] {
        let client = TestClient()
        client.open(text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.count - 1
        return client.request("textDocument/completion", client.at(line, lines[line].utf16.count))["result"]?.array?
            .filter { $0["kind"] == 5 }.compactMap { $0["label"]?.string } ?? []
    }

    @Test(
        "completion offers the labels the stage being written takes, from the catalog, minus those it has",
        arguments: [
            ("just 1 | flatMap maxP", ["maxPublishers:"]),
            ("just 1 | flatMap ", ["maxPublishers:"]),
            ("just 1 | timeout 1s ", ["customError:"]),
            ("marble \"-a|\" ", ["frame:", "error:"]),
            ("marble \"-a|\" frame: 10ms ", ["error:"]),
            (
                "let h = interval 1s | handleEvents receiveCancel: \"x\" rec",
                ["receiveSubscription:", "receiveOutput:", "receiveCompletion:", "receiveRequest:"]
            ),
            ("from [1] | flatMap { just $0 | timeout 1s ", ["customError:"]),
            ("from [1] | flatMap { just $0 } | output ", ["at:"]),
            ("just 1 | map ", []),
            ("just \"| flatMap \" | map ", []),
        ])
    func labelCompletion(_ text: String, _ expected: [String]) {
        #expect(labels(text) == expected, "\(text)")
    }

    @Test("every label the catalog's argument rules accept is offered for its entry")
    func everyLabelOffered() {
        for entry in Catalog.entries where !entry.argumentLabels.isEmpty {
            let offered = Set(labels("\(entry.kind == .source ? "" : "just 1 | ")\(entry.name) "))
            #expect(offered == Set(entry.argumentLabels.map { $0.label + ":" }), "\(entry.name)")
        }
    }

    /// Formatting is `PipeFormatter`'s, on the lossless syntax tree: comments are kept.
    @Test("formatting is offered, and keeps comments")
    func formattingKeepsComments() {
        let client = TestClient(initialize: false)
        let initialize = client.request("initialize", ["capabilities": [:]])
        #expect(initialize["result"]?["capabilities"]?["hoverProvider"] == true)
        #expect(initialize["result"]?["capabilities"]?["documentFormattingProvider"] == true)
        client.open("# keep me\njust 1|sink")
        let reply = client.request("textDocument/formatting", ["textDocument": ["uri": .string(client.uri)], "options": ["tabSize": 4, "insertSpaces": true]])
        let edits = reply["result"]?.array ?? []
        #expect(!edits.isEmpty)
        #expect(edits.allSatisfy { $0["newText"]?.string?.contains("keep") == false })
    }
}
