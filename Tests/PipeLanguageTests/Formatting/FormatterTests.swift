import Foundation
import Testing
@testable import PipeLanguage

@Suite struct FormatterTests {
    static func formatted(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        switch PipeFormatter.format(text) {
        case .success(let text): return text
        case .failure(let refusal):
            Issue.record("refused: \(refusal)", sourceLocation: sourceLocation)
            return text
        }
    }

    static let cases: [(String, String)] = [
        ("just 1|map{$0+1}", "just 1 | map { $0 + 1 }\n"),
        ("from [1,2 ,3]|filter {  $0>1 }   # keep\n\n\n\nsink", "from [1, 2, 3] | filter { $0 > 1 } # keep\n\nsink\n"),
        ("just -1 | map { -$0 * - 1 }", "just -1 | map { -$0 * - 1 }\n"),
        ("just 1 | map { min( abs ($0) , 2 ) }", "just 1 | map { min(abs($0), 2) }\n"),
        ("just \"a\" | map { $0.uppercased( ) }", "just \"a\" | map { $0.uppercased() }\n"),
        ("from [[1]] | map { $0[0] }", "from [[1]] | map { $0[0] }\n"),
        ("from 1 ... 3", "from 1...3\n"),
        ("let s = subject\ns . send 1\ns.finish", "let s = subject\ns.send 1\ns.finish\n"),
        ("just 1 |\n  map { $0 } |   # why\n  sink", "just 1\n    | map { $0 } # why\n    | sink\n"),
        ("just 1 | map { $0 > 1 ? \"a\" : \"b\" }", "just 1 | map { $0 > 1 ? \"a\" : \"b\" }\n"),
        ("  \n\n# only a comment  \n\n", "# only a comment\n"),
        ("", ""),
        ("just 1\n:trace on   \njust 2 &", "just 1\n:trace on\njust 2 &\n"),
        (
            "just 1 | flatMap {\n just $0 |\n delay 1s\n}",
            "just 1 | flatMap {\n    just $0\n    | delay 1s\n}\n"
        ),
        (
            "from [1, 2, 3] | map { $0 * 1000 } | filter { $0 > 1000 } | scan 0 { $0 + $1 } | removeDuplicates | collect",
            "from [1, 2, 3]\n    | map { $0 * 1000 }\n    | filter { $0 > 1000 }\n    | scan 0 { $0 + $1 }\n    | removeDuplicates\n    | collect\n"
        ),
        ("expect marbles \"-a-|\" frame : 10ms", "expect marbles \"-a-|\" frame: 10ms\n"),
    ]

    @Test("the house style", arguments: cases)
    func houseStyle(input: String, expected: String) {
        #expect(Self.formatted(input) == expected)
    }

    @Test("formatting twice equals formatting once, and keeps the parsed program", arguments: RepositoryScripts.paths)
    func idempotentOnFiles(path: String) throws {
        let text = try RepositoryScripts.text(path)
        let once = Self.formatted(text)
        #expect(Self.formatted(once) == once)
        #expect(parse(ScriptLines(once).language).0 == parse(ScriptLines(text).language).0)
        #expect(ScriptLines(once).hostLines.map(\.text) == ScriptLines(text).hostLines.map(\.text))
    }

    /// `text` with its layout shuffled in ways that keep its meaning: spaces between tokens that
    /// had one widened, some line breaks after `|`, comments at line ends.
    static func shuffled(_ text: String, using random: inout SeededGenerator) -> String {
        let tree = SyntaxTree(text)
        var out = ""
        for (index, token) in tree.tokens.enumerated() {
            var gap = tree.gapText(before: index)
            if gap == " " {
                let previousIsPipe = index > 0 && tree.tokens[index - 1].isPunct("|")
                gap = previousIsPipe && Bool.random(using: &random) ? "\n  " : ["  ", "\t", "   "].randomElement(using: &random) ?? " "
            } else if gap.hasPrefix("\n"), index > 0, Bool.random(using: &random) {
                gap = "   # generated\n\n\n" + gap
            }
            out += gap + token.text
        }
        return out
    }

    @Test("generated layouts format to the same text, idempotently, with the same program", arguments: RepositoryScripts.paths)
    func generatedLayouts(path: String) throws {
        let text = try RepositoryScripts.text(path)
        var random = SeededGenerator(state: UInt64(path.utf8.count))
        let canonical = Self.formatted(text)
        for _ in 0..<5 {
            let messy = Self.shuffled(text, using: &random)
            #expect(parse(ScriptLines(messy).language).0 == parse(ScriptLines(text).language).0)
            let once = Self.formatted(messy)
            #expect(Self.formatted(once) == once)
            #expect(parse(ScriptLines(once).language).0 == parse(ScriptLines(text).language).0)
            // A layout with the same lines (spaces changed only) formats to the same text.
            if messy.filter({ $0 == "\n" }).count == text.filter({ $0 == "\n" }).count { #expect(once == canonical) }
        }
    }

    @Test("a text with errors is left alone, and the refusal says where")
    func refusesErrors() {
        guard case .failure(let refusal) = PipeFormatter.format("just 1 | map { $0 + }\n") else {
            Issue.record("formatted a text with errors")
            return
        }
        #expect(refusal.description.hasPrefix("1:"))
        guard case .failure = PipeFormatter.format("just €\n") else {
            Issue.record("formatted a text with a bad character")
            return
        }
    }

    @Test("range formatting only touches the gaps in the range")
    func rangeEdits() throws {
        let text = "just 1|map{$0}\njust 2|map{$0}\n"
        let second = try #require(Array(text.utf8).firstIndex(of: UInt8(ascii: "2")))
        let edits = try PipeFormatter.edits(text, in: second..<text.utf8.count).get()
        #expect(PipeFormatter.apply(edits, to: text) == "just 1|map{$0}\njust 2 | map { $0 }\n")
    }

    @Test("no generated input crashes or hangs the formatter")
    func generatedInputs() {
        var random = SeededGenerator(state: 83)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...25, using: &random)
            let text = (0..<count).map { _ in SyntaxTreeTests.fragments.randomElement(using: &random) ?? "" }.joined()
            if case .success(let once) = PipeFormatter.format(text) {
                #expect(Self.formatted(once) == once, "\(text.debugDescription)")
                #expect(parse(ScriptLines(once).language).0 == parse(ScriptLines(text).language).0, "\(text.debugDescription)")
            }
        }
    }
}
