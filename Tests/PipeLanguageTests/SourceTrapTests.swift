import Foundation
import Testing

/// No input may stop the process: the language and the shell hold no trap a user's text can
/// reach. This reads their sources for every explicit trap (`fatalError`, `precondition…`,
/// `assert…`, `try!`, `as!`, a force unwrap) and holds each one left to a reason why no input
/// reaches it. A new trap fails here until it is removed or justified below.
@Suite("Traps in the language and the shell")
struct SourceTrapTests {
    /// `file name: code` → why no input can make it trap.
    static let justified: [String: String] = [
        "SwiftProgram.swift: checked.stages.last!":
            "a checked pipeline has at least its source stage (the checker never returns an empty one)",
        "SwiftTranslation.swift: stage.arguments[i]!":
            "every use is behind `has(i)`, which checks that argument i is present",
        "SwiftTranslation.swift: allCases.firstIndex(of: a)!": "a case of the enum is always among its allCases",
        "SwiftTranslation.swift: allCases.firstIndex(of: b)!": "a case of the enum is always among its allCases",
        "Catalog.swift: byName[\"\"]!": "the catalog's own constant table has `sink`; a test builds every entry",
        "CheckedTree.swift: stage.nested[index]!": "iterates the dictionary's own keys",
        "Suggestions.swift: best!": "read only after `best == nil ||` short-circuits",
        "BuildContext.swift: stage.todo!": "inside `case _ where stage.todo != nil`",
        "Lexer.swift: Int(text(i + 1, j))!": "one or two ASCII digits (longer numbers are refused just above)",
        "Parser.swift: name.identifier!": "the statement was recognised as `let NAME =` by peeking the same token",
        "Parser.swift: peek().identifier!": "checked non-nil two lines above",
        "Parser.swift: word.identifier!": "`expect` is parsed only when the next token is an identifier",
        "MarbleNotation.swift: group!": "inside `if group != nil`",
        "MarbleNotation.swift: s.first!": "inside `where s.count == 1`",
        "Completion.swift: malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (matches.count + 2))!":
            "malloc of a few pointers: only out-of-memory fails, not input",
        "Arguments.swift: topic.first!": "behind `topic.count > 1`",
        "EventFormatter.swift: buffer.baseAddress!": "a stack buffer of fixed, non-zero size",
        "OutputSink.swift: raw.baseAddress!": "inside the loop over a non-empty buffer (`offset < raw.count`)",
    ]

    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every trap found: `file name: the trapping expression`.
    static func traps() throws -> [String] {
        let words = try NSRegularExpression(pattern: #"\b(fatalError|preconditionFailure|precondition|assertionFailure|assert)\s*\(|\btry!|\bas!"#)
        // A force unwrap: `!` right after a name, `)` or `]`, not `!=`; with what it unwraps.
        let unwrap = try NSRegularExpression(pattern: #"[\w\)\]]!(?!=)"#)
        var found: [String] = []
        for module in ["PipeLanguage", "PlumbShell"] {
            let dir = sourceRoot.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files.sorted() {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                let name = (file as NSString).lastPathComponent
                for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let line = Self.code(String(rawLine))
                    let range = NSRange(line.startIndex..., in: line)
                    for m in words.matches(in: line, range: range) {
                        found.append("\(name): \((line as NSString).substring(with: m.range))")
                    }
                    for m in unwrap.matches(in: line, range: range) {
                        let text = (line as NSString).substring(to: m.range.location + m.range.length)
                        found.append("\(name): \(Self.operand(text))")
                    }
                }
            }
        }
        return found
    }

    /// The line without its comment and with string literals emptied (a `!` in a message is text).
    static func code(_ line: String) -> String {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return "" }
        var out = ""
        var inString = false
        var escaped = false
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false; out.append(c) }
                continue
            }
            if c == "\"" { inString = true }
            out.append(c)
        }
        if let comment = out.range(of: " // ") { out = String(out[..<comment.lowerBound]) }
        return out
    }

    /// The last operand before the `!`: `stage.arguments[i]!` out of `case .expr(let e) = stage.arguments[i]!`.
    static func operand(_ text: String) -> String {
        var depth = 0
        var start = text.endIndex
        for i in text.indices.reversed() {
            let c = text[i]
            if c == ")" || c == "]" {
                depth += 1
            } else if c == "(" || c == "[" {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0, c == " " || c == "=" || c == "," {
                break
            }
            start = i
        }
        return String(text[start...])
    }

    @Test("every trap the language and shell keep is justified; none is reachable from input")
    func trapsJustified() throws {
        let found = try Self.traps()
        #expect(!found.isEmpty, "the scan found nothing: the source path is wrong")
        for trap in found {
            #expect(Self.justified[trap] != nil, "unjustified trap: \(trap)")
        }
    }

    @Test("the scan sees a trap it is shown")
    func scanSees() {
        #expect(Self.code("x = a! + 1 // b!") == "x = a! + 1")
        #expect(Self.code("print(\"boom!\")") == "print(\"\")")
        #expect(Self.operand("case .expr(let e) = stage.arguments[i]!") == "stage.arguments[i]!")
    }
}
