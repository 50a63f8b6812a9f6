import Foundation
import Testing
@testable import PipeLanguage

/// Every `.pipe` file in the repository (Examples, editor fixtures), by path from the root.
enum RepositoryScripts {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let paths: [String] = {
        let fm = FileManager.default
        return ["Examples", "Tests/editors"].flatMap { folder in
            (fm.subpaths(atPath: root.appendingPathComponent(folder).path) ?? [])
                .filter { $0.hasSuffix(".pipe") }
                .map { folder + "/" + $0 }
        }.sorted()
    }()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

/// A small deterministic generator (the same inputs every run).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

@Suite struct SyntaxTreeTests {
    @Test("the repository has .pipe files to check") func found() {
        #expect(RepositoryScripts.paths.count > 30)
    }

    @Test("printing the unchanged tree of every .pipe in the repository gives it back byte for byte", arguments: RepositoryScripts.paths)
    func roundTripsFiles(path: String) throws {
        let text = try RepositoryScripts.text(path)
        #expect(SyntaxTree(text).description == text)
    }

    static let fragments = [
        "just", " ", "  ", "1", "2.5", "|", "\n", "\n\n", "# a comment", ":load lib.pipe\n", ":trace on", "{", "}", "$0", "$", "\"s\\(1 + 2)\"",
        "\"open", "€", "\u{FEFF}", "\t", "\r\n", "-", "..", "...", "..<", "(", ")", "[", "]", ",", ":", "map", "1ms", "3µs", "||", "&", "let",
        "=", "x", "é", "\\", "\"a\\(\"b\")c\"", "99999999999999999999", "1e400", "#", "\u{0}", "\u{7}", ".send", "?", "!",
    ]

    @Test("printing the unchanged tree of generated inputs gives them back byte for byte")
    func roundTripsGeneratedInputs() {
        var random = SeededGenerator(state: 38)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...30, using: &random)
            let text = (0..<count).map { _ in Self.fragments.randomElement(using: &random) ?? "" }.joined()
            let tree = SyntaxTree(text)
            #expect(tree.description == text, "\(text.debugDescription)")
        }
    }

    @Test("comments and blank lines are trivia; statements are split at their ends")
    func trivia() {
        let tree = SyntaxTree("# head\n\njust 1 | map { $0 }  # tail\n:trace on\nfrom [1]\n    | sink\n")
        #expect(tree.statements.count == 2)
        let just = tree.tokens[0]
        #expect(just.text == "just")
        #expect(just.leadingTrivia == [.comment("# head"), .newline, .newline])
        let closer = tree.tokens[tree.statements[0].upperBound - 1]
        #expect(closer.text == "}")
        #expect(closer.trailingTrivia == [.spaces("  "), .comment("# tail")])
        #expect(tree.tokens[tree.statements[1].lowerBound].leadingTrivia == [.newline, .hostLine(":trace on"), .newline])
    }

    @Test("a line starting with | goes on with the pipeline before it")
    func leadingPipe() {
        let (statements, diagnostics) = parse("just 1\n    | map { $0 + 1 }\n\n    # why\n    | sink\njust 2")
        #expect(diagnostics.isEmpty)
        #expect(statements.count == 2)
        if case .pipeline(let pipeline, _) = statements.first?.kind { #expect(pipeline.stages.count == 3) }
        #expect(parse("just 1\n|| map").1.isEmpty == false)
    }

    @Test("a long run of blank lines before a | is scanned once, not once per line")
    func blankLinesAreLinear() {
        let text = "just 1" + String(repeating: "\n", count: 200_000) + "| sink"
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(parse(text).1.isEmpty) }
        #expect(elapsed < .seconds(10))
    }
}
