import Foundation
import PipeLanguage
import Testing

/// The editor grammars name the catalog's sources and operators: Editors/pipe.tmLanguage.json
/// (its `sources` and `operators` rules) and Editors/vim/syntax/pipe.vim (its `pipeSource` and
/// `pipeOperator` keywords) list exactly the catalog's names and aliases.
@Suite struct EditorGrammarCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Sources, and operators with terminals, as the grammars split them (`todo`, the workshop's
    /// placeholder, has its own keyword scope in both).
    static func catalogNames() -> (sources: Set<String>, operators: Set<String>) {
        func names(_ entries: [CatalogEntry]) -> Set<String> { Set(entries.flatMap { [$0.name] + $0.aliases }) }
        let entries = Catalog.entries.filter { $0.name != "todo" }
        return (names(entries.filter { $0.kind == .source }), names(entries.filter { $0.kind != .source }))
    }

    /// The words of a `\b(a|b|c)\b` rule.
    static func words(ofRule rule: String, in grammar: [String: Any]) throws -> Set<String> {
        let repository = try #require(grammar["repository"] as? [String: Any])
        let match = try #require((repository[rule] as? [String: Any])?["match"] as? String)
        #expect(match.hasPrefix("\\b(") && match.hasSuffix(")\\b"), "\(match)")
        return Set(match.dropFirst(3).dropLast(3).split(separator: "|").map(String.init))
    }

    @Test("the TextMate grammar's sources and operators are the catalog's names and aliases")
    func textMate() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Editors/pipe.tmLanguage.json"))
        let grammar = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let (sources, operators) = Self.catalogNames()
        #expect(try Self.words(ofRule: "sources", in: grammar) == sources)
        #expect(try Self.words(ofRule: "operators", in: grammar) == operators)
    }

    @Test("the Vim syntax's pipeSource and pipeOperator words are the catalog's names and aliases")
    func vim() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Editors/vim/syntax/pipe.vim"), encoding: .utf8)
        var groups: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count > 3, words[0] == "syntax", words[1] == "keyword" {
                groups[words[2], default: []].formUnion(words[3...])
            } else if words.count == 4, words[0] == "syntax", words[1] == "match", words[3].hasPrefix("/\\<"), words[3].hasSuffix("\\>/") {
                groups[words[2], default: []].insert(String(words[3].dropFirst(3).dropLast(3)))
            }
        }
        let (sources, operators) = Self.catalogNames()
        #expect(groups["pipeSource"] == sources)
        #expect(groups["pipeOperator"] == operators)
    }
}
