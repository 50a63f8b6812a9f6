import CReadline
import Foundation
import PipeLanguage

#if canImport(Glibc)
import Glibc
#endif

/// The words tab completion offers, refreshed by the REPL (bindings and jobs change).
struct CompletionWords: Sendable {
    var sources: [String] = []
    var operators: [String] = []
    var bindings: [String] = []
    var commands: [String] = []
    var jobs: [String] = []
    /// The bindings that take `NAME.send` and `NAME.finish`, with their commands (a channel has
    /// no `fail`).
    var senders: [String: [String]] = [:]
    /// The channel bindings: a pipeline starting with one is on the async side.
    var channels: Set<String> = []
}

/// Decides what to complete from the text before the cursor; pure, so it is unit-tested.
enum Completer {
    enum Kind: Equatable {
        case words([String])
        case files
    }

    /// - Parameters:
    ///   - before: the line up to the start of the word being completed.
    ///   - word: the partial word.
    static func candidates(before: String, word: String, words: CompletionWords) -> Kind {
        let head = before.drop { $0 == " " || $0 == "\t" }
        if head.hasPrefix(":") {
            let name = head.dropFirst().prefix { $0 != " " }
            let rest = head.dropFirst(name.count + 1)
            switch ShellCommand.named(String(name))?.completion ?? .nothing {
            case .nothing: return .words([])
            case .words(let choices): return .words(filter(choices, word))
            case .files: return .files
            case .pipeline: return .words(filter(stagesAfter(rest, words: words), word))
            case .jobs(let choices): return .words(filter(words.jobs + choices, word))
            case .helpTopics: return .words(filter(words.sources + words.operators + words.commands + ["diagnostics"], word))
            }
        }
        if head.isEmpty && word.hasPrefix(":") {
            return .words(filter(words.commands, word))
        }
        // `c.` at the start of a statement: the subject's or channel's commands.
        if head.isEmpty, let dot = word.firstIndex(of: "."), let verbs = words.senders[String(word[..<dot])] {
            let name = word[..<dot]
            return .words(filter(verbs.map { "\(name).\($0)" }, word))
        }
        return .words(filter(stagesAfter(Substring(head), words: words), word))
    }

    /// At the start of a stage (after `|`, `=`, `(` or `{`, or at the line start) a source or operator.
    private static func stagesAfter(_ text: Substring, words: CompletionWords) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            return words.bindings + words.sources + ["let", "expect"]
        }
        if trimmed.hasSuffix("|") {
            return operators(words.operators, on: side(after: Substring(trimmed), channels: words.channels))
        }
        if trimmed.hasSuffix("=") || trimmed.hasSuffix("(") || trimmed.hasSuffix("{") {
            return words.bindings + words.sources
        }
        // Inside a stage's arguments: names are still useful (bindings for merge, zip...).
        return words.bindings + operators(words.operators, on: side(after: Substring(trimmed), channels: words.channels))
    }

    static func filter(_ names: [String], _ prefix: String) -> [String] {
        var seen = Set<String>()
        return names.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }.sorted()
    }

    static func commonPrefix(_ names: [String]) -> String {
        guard var prefix = names.first else { return "" }
        for name in names.dropFirst() {
            while !name.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// readline's `rl_attempted_completion_function`.
func plumbComplete(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    plumb_rl_set_attempted_completion_over(1)
    let word = text.map { String(cString: $0) } ?? ""
    let line = plumb_rl_line_buffer().map { String(cString: $0) } ?? ""
    let before = String(decoding: Array(line.utf8.prefix(Int(start))), as: UTF8.self)
    let words = LineEditor.completionWords.withLock { $0 }
    switch Completer.candidates(before: before, word: word, words: words) {
    case .files:
        guard let text else { return nil }
        return plumb_rl_filename_matches(text)
    case .words(let matches):
        guard !matches.isEmpty else { return nil }
        // readline's format: the replacement (common prefix) first, then the matches, then NULL.
        // readline frees the array and the strings with free(), so they come from malloc and strdup.
        let raw = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (matches.count + 2))!
        let array = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: matches.count + 2)
        if matches.count == 1 {
            array[0] = strdup(matches[0])
            array[1] = nil
        } else {
            array[0] = strdup(Completer.commonPrefix(matches))
            for (index, match) in matches.enumerated() { array[index + 1] = strdup(match) }
            array[matches.count + 1] = nil
        }
        return array
    }
}

extension Completer {
    /// The side a stage typed after `text` stands on: the crossings (`values`, `stream`,
    /// `publisher`) among the stages of the innermost open pipeline before the cursor (a nested
    /// `( … )` pipeline starts on the publisher side; closures and strings are skipped).
    /// A pipeline that starts with a channel binding (`c | …`, one of `channels`) starts on the async side.
    static func side(after text: Substring, channels: Set<String> = []) -> Side {
        // The stage texts of each open pipeline: one list per open parenthesis, the last the
        // pipeline being typed; a nested pipeline's text is dropped when it closes.
        var pipelines: [[String]] = [[""]]
        var braces = 0
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if braces > 0 {
                if character == "{" { braces += 1 } else if character == "}" { braces -= 1 }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": braces += 1
            case "(": pipelines.append([""])
            case ")": if pipelines.count > 1 { pipelines.removeLast() }
            case "|": pipelines[pipelines.count - 1].append("")
            default: pipelines[pipelines.count - 1][pipelines[pipelines.count - 1].count - 1].append(character)
            }
        }
        let stages = (pipelines.last ?? []).dropLast()
        let first = stages.first.flatMap { $0.split(separator: " ").first }.map(String.init)
        var side = first.map(channels.contains) == true ? Side.async : Side.publisher
        for stage in stages {
            switch stage.split(separator: " ").first {
            case "values", "stream": side = .async
            case "publisher": side = .publisher
            default: break
            }
        }
        return side
    }

    /// The operators with a form on `side` (`retry` is not offered after `values |`, `adjacentPairs`
    /// only there); a name the catalog does not know is kept.
    static func operators(_ names: [String], on side: Side) -> [String] {
        names.filter { Catalog.entry(named: $0).map { $0.sides.contains(side) } ?? true }
    }
}
