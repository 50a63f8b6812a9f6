import PipeLanguage
import Testing

@testable import PlumbShell

/// Tab completion by side (issue 39): after `values |` (or `stream |`) the async side's operators,
/// after `publisher |` the publisher's again; a nested pipeline starts on the publisher side.
@Suite struct SideCompletionTests {
    static let words = CompletionWords(
        sources: ["just", "from"], operators: Catalog.entries.filter { $0.kind != .source }.flatMap { [$0.name] + $0.aliases }, bindings: ["ticks"],
        commands: [":help"], jobs: [])

    static func offered(_ before: String, _ word: String = "") -> [String] {
        guard case .words(let names) = Completer.candidates(before: before, word: word, words: words) else { return [] }
        return names
    }

    @Test("after values | the async side's operators: no retry, adjacentPairs offered")
    func asyncSide() {
        let names = Self.offered("from [1, 2] | values | ")
        #expect(names.contains("adjacentPairs") && names.contains("chunks") && names.contains("debounce") && names.contains("publisher"))
        #expect(!names.contains("retry") && !names.contains("scan") && !names.contains("values") && !names.contains("stream"))
        #expect(Self.offered("from [1, 2] | values | ", "re") == ["removeDuplicates"])
        #expect(Self.offered("just 1 | stream newest 2 | map { $0 } | ", "ad") == ["adjacentPairs"])
    }

    @Test("on a publisher, and after publisher |, the publisher's operators: retry, not adjacentPairs")
    func publisherSide() {
        for before in ["from [1, 2] | ", "from [1] | values | map { $0 } | publisher | ", ":compare just 1 | "] {
            let names = Self.offered(before)
            #expect(names.contains("retry") && names.contains("values") && !names.contains("adjacentPairs"), "\(before)")
        }
    }

    @Test("the side is read from the pipeline being typed: a nested pipeline, closures and strings do not count")
    func sideScan() {
        #expect(Completer.side(after: "from [1] | values | merge (just 2 | ") == .publisher)
        #expect(Completer.side(after: "from [1] | values | merge (just 2 | values) | ") == .async)
        #expect(Completer.side(after: "from [1] | filter { $0 > 1 || $0 < 0 } | ") == .publisher)
        #expect(Completer.side(after: "from [\"values | \"] | ") == .publisher)
        #expect(Completer.side(after: "from [1] | values | ") == .async)
    }

    @Test("a pipeline starting with a channel binding is on the async side; c. offers the channel's commands")
    func channel() {
        var words = Self.words
        words.bindings = ["c", "s"]
        words.channels = ["c"]
        words.senders = ["c": ["finish", "send"], "s": ["fail", "finish", "send"]]
        #expect(Completer.side(after: "c | ", channels: ["c"]) == .async)
        #expect(Completer.side(after: "c | map { $0 } | publisher | ", channels: ["c"]) == .publisher)
        #expect(Completer.side(after: "s | ", channels: ["c"]) == .publisher)
        guard case .words(let afterChannel) = Completer.candidates(before: "c | ", word: "ad", words: words) else { return }
        #expect(afterChannel == ["adjacentPairs"])
        guard case .words(let commands) = Completer.candidates(before: "", word: "c.", words: words) else { return }
        #expect(commands == ["c.finish", "c.send"])
        guard case .words(let subject) = Completer.candidates(before: "", word: "s.f", words: words) else { return }
        #expect(subject == ["s.fail", "s.finish"])
        // Not at the start of a statement, or not a sender: nothing of the kind.
        guard case .words(let inside) = Completer.candidates(before: "just 1 | ", word: "c.", words: words) else { return }
        #expect(inside.isEmpty)
    }
}
