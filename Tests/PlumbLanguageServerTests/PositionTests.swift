import Foundation
import Testing

@testable import PlumbLanguageServer

/// The protocol counts positions in UTF-16 code units by default (LSP 3.17, "Position":
/// `positionEncoding` defaults to utf-16): `é` and `€` are one unit each, an emoji two.
@Suite struct PositionTests {
    @Test(
        "an error after é, € or an emoji is at the UTF-16 column",
        arguments: [("é", 1), ("€", 1), ("😀", 2), ("é€😀", 4)])
    func diagnosticAfterWideCharacters(prefix: String, units: Int) throws {
        let client = TestClient()
        let text = "just \"\(prefix)\" | retyr 3"
        client.open(text)
        let diagnostic = try #require(client.publishedDiagnostics().first)
        // `just "` is 6 units, then the prefix, then `" | ` (4 units) before `retyr`.
        #expect(diagnostic["range"]?["start"] == ["line": 0, "character": .int(10 + units)])
        #expect(diagnostic["range"]?["end"] == ["line": 0, "character": .int(15 + units)])
        #expect(diagnostic["code"] == "E302")
    }

    @Test("offsets and positions convert both ways on every line")
    func roundTrip() {
        let doc = TextDocument(uri: "u", version: 1, text: "a😀b\n€é\n\nxyz")
        for (offset, position) in [(0, (0, 0)), (1, (0, 1)), (5, (0, 3)), (7, (1, 0)), (10, (1, 1)), (12, (1, 2)), (13, (2, 0)), (14, (3, 0)), (17, (3, 3))] {
            #expect(doc.position(of: offset) == Position(line: position.0, character: position.1))
            #expect(doc.offset(of: Position(line: position.0, character: position.1)) == offset)
        }
    }

    @Test("a position past the line's end, past the text, or inside a surrogate pair is clamped")
    func clamping() {
        let doc = TextDocument(uri: "u", version: 1, text: "a😀b\nxy")
        #expect(doc.offset(of: Position(line: 0, character: 99)) == 6)
        #expect(doc.offset(of: Position(line: 9, character: 0)) == 9)
        #expect(doc.offset(of: Position(line: 0, character: 2)) == 1)
        #expect(doc.offset(of: Position(line: -1, character: 0)) == 0)
    }

    @Test("an incremental change replaces exactly its range")
    func incrementalChange() {
        var doc = TextDocument(uri: "u", version: 1, text: "just \"😀\" | retyr 3")
        doc.replace(from: Position(line: 0, character: 12), to: Position(line: 0, character: 17), with: "retry")
        #expect(doc.text == "just \"😀\" | retry 3")
    }

    @Test("a change to a CRLF line's end keeps its \\r\\n (the end is before the \\r)")
    func crlfLineEnd() {
        var doc = TextDocument(uri: "u", version: 1, text: "just 1\r\njust 2\r\n")
        doc.replace(from: Position(line: 0, character: 0), to: Position(line: 0, character: 99), with: "just 3")
        #expect(doc.text == "just 3\r\njust 2\r\n")
        #expect(doc.position(of: 8) == Position(line: 1, character: 0))
    }
}
