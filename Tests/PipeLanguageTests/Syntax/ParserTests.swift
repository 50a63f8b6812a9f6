import Foundation
import Testing
@testable import PipeLanguage

/// Removes the marker `1️⃣` from `text`; returns the text and the marker's 1-based line and column.
func unmark(_ text: String) -> (text: String, line: Int, column: Int) {
    guard let r = text.range(of: "1️⃣") else { return (text, 0, 0) }
    let before = text[..<r.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
    let column = before[lineStart...].unicodeScalars.count + 1
    return (text.replacingCharacters(in: r, with: ""), line, column)
}

/// Parses `text` (no checking) into statements.
func parse(_ text: String) -> ([StatementAST], [Diagnostic]) {
    var parser = Parser(source: SourceText(text, file: "t"))
    let statements = parser.parseProgram()
    return (statements, parser.diagnostics)
}

@Suite struct RoundTripTests {
    static let designExamples = [
        "just 1 | asyncMap delay 100 | retry 3 | sink",
        "from [1, 2, 3] | map { $0 * 10 } | filter { $0 > 10 }      # `sink` is implied",
        "let ticks = interval 100ms | take 5",
        "ticks | scan 0 { $0 + $1 } | sink",
        "let s = subject",
        "s | map { $0 * 2 } | sink &",
        "s.send 1",
        "s.finish",
        "s.fail \"boom\"",
        "let f = future delay 200 value 42",
        "let d = deferred { future delay 200 value 42 }",
        "just 5 | asyncMap flaky 2 | retry 3 | replaceError -1",
        "expect values [5]",
        "expect finished",
        "expect failed \"boom\"",
        "expect count 3",
        "expect time 1.5s",
        "from [1, 2] | flatMap maxPublishers: 2 { from [$0, $0 * 10] }",
        "interval 30ms | take 10 | throttle 100ms latest: true",
        "just 1 | map { \"n=\\($0 + 1)!\" }",
        "just [1, 2, 3] | map { $0.count > 2 ? $0[0] : -1 }",
        "just 1 | map { ($0 + 2) * 3 - -4 / 2 % 5 }",
        "just 1 | map { !($0 == 1) && true || $0 != 2 }",
        "just nil | map { $0 ?? 1 ?? 2 }",
        "just 1 | map { abs(min($0, 2)) + max(1, Int(\"3\")) }",
        "from 1...5 | map { String($0) + \"x\" }",
        "just 1 | map { (1 + 2) * 3 }",
        "just (1 + 2) * 3",
        "just 1.5 | map { $0 * 2.25e-5 }",
        "just \"tab\\tquote\\\"slash\\\\\" | sink",
        "just 1 | merge (just 2 | map { $0 }) | zip (from [1, 2])",
        "just 1 | asyncMap delay 1s { $0 * 2 }",
        "just 1 | asyncMap { $0 + 1 }",
        "just 1 | prefix while: { $0 < 3 } | first where: { $0 > 0 }",
        "just -5 | map { -$0 }",
        "just 1 | map { (-5).count }",
        "just [[1], [2, 3]] | map { $0[1][0] }",
        "from 1...3 | collect 2 | values",
        "timer 2m | async",
    ]

    @Test("parse → print → parse gives the same AST for DESIGN.md's examples and the catalog's")
    func roundTrip() {
        let examples = Self.designExamples + Catalog.entries.map(\.example)
        for example in examples {
            let (first, d1) = parse(example)
            #expect(d1.isEmpty, "\(example): \(d1)")
            // A catalog example may be several lines: a binding, its sends and uses.
            #expect(first.count == example.split(separator: "\n").count, "\(example)")
            let printed = first.map(Printer.print).joined(separator: "\n")
            let (second, d2) = parse(printed)
            #expect(d2.isEmpty, "\(printed): \(d2)")
            #expect(first == second, "\(example) printed as \(printed)")
            // Printing is canonical: a second round prints the same text.
            #expect(second.map(Printer.print).joined(separator: "\n") == printed)
        }
    }
}

@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var message: String?
        var description: String { text.count > 60 ? String(text.prefix(60)) + "…" : text }
        init(_ text: String, _ message: String?) {
            self.text = text
            self.message = message
        }
    }

    static let deep = 100_000

    static let cases: [Case] = [
        Case("just 1️⃣\"abc", "unterminated string literal"),
        Case("from 1️⃣[1, 2", "unterminated array"),
        Case("just 1 | map 1️⃣{ $0 * 2", "unterminated closure"),
        Case("just 1 | merge 1️⃣(just 2", "unterminated parenthesis"),
        Case("just 1 1️⃣|", "expected a stage after '|'"),
        Case("just 1 | 1️⃣retyr 3", "unknown operator 'retyr'"),
        Case("1️⃣jsut 1", "unknown source or binding 'jsut'"),
        Case("1️⃣ticks | sink", "unknown source or binding 'ticks'"),
        Case("just 1 | merge 1️⃣nothere", "unknown binding 'nothere'"),
        Case("1️⃣s.send 1", "unknown subject 's'"),
        Case("just 1 | take 1️⃣\"x\"", "take expects a non-negative integer, got \"x\""),
        Case("just 1 | take 1️⃣-1", "take expects a non-negative integer, got -1"),
        Case("just 1 | 1️⃣take", "'take' is missing its COUNT argument"),
        Case("just 1 | take 1 1️⃣2", "too many arguments for 'take'"),
        Case("just 1️⃣99999999999999999999", "integer literal '99999999999999999999' overflows Int"),
        Case("just 1 | asyncMap delay 1️⃣-100", "asyncMap delay expects a non-negative duration, got -100"),
        Case("just 1 | asyncMap delay 1️⃣-100ms", "a duration cannot be negative"),
        Case("just 1 | map 1️⃣5", "map expects a closure such as { $0 * 2 }, got 5"),
        Case("just 1 | 1️⃣just 2", "'just' is a source and cannot follow '|'"),
        Case("1️⃣map { $0 }", "'map' is an operator"),
        Case("just 1 | 1️⃣sink | map { $0 }", "'sink' ends a pipeline; it must be the last stage"),
        Case("just 1 | map { $0 + 1️⃣$1 }", "$1 is not available: map's closure takes one argument ($0)"),
        Case("just 1️⃣$0", "$0 is only available inside a closure"),
        Case("just 1 | map 1️⃣{ foo }", "map expects a closure such as { $0 * 2 }, got { foo }"),
        Case("just 1 | filter { $0 > 1️⃣}", "expected a value, found '}'"),
        Case("", nil),
        Case("   \n\t\n  ", nil),
        Case("# only a comment\n   # and another", nil),
        Case("just 1 1️⃣\u{FFFD}\u{FFFD}", "invalid UTF-8"),
        Case("just 1 1️⃣\u{07}", "control character U+0007 is not allowed here"),
        Case("just \"a1️⃣\u{01}b\"", "control character U+0001 is not allowed in a string"),
        Case("just \"a1️⃣\\(1\"", "unterminated interpolation"),
        Case("just \"a1️⃣\\qb\"", "invalid escape sequence in string"),
        Case("let 1️⃣= 5", "expected a name after 'let'"),
        Case("let x = 1️⃣", "expected a pipeline after '='"),
        Case("let 1️⃣map = just 1", "cannot bind 'map'"),
        Case("just 1 | scan 1️⃣{ $0 }", "scan expects a value, got { $0 }"),
        Case("just 1 | first 1️⃣wher: { $0 > 1 }", "'first' has no argument labelled 'wher:'"),
        Case("just 1 | map { $0 } 1️⃣)", "unexpected ')' after the end of the statement"),
        Case("1️⃣: trace on", "expected a source or operator name, found ':'"),
        Case("just 1 | asyncMap 1️⃣retry 3", "unknown asyncMap step 'retry'"),
        Case("from 1️⃣5...1", "range 5...1 has its lower bound above its upper bound"),
        Case("just 1️⃣1.5e999", "floating-point literal '1.5e999' is too large"),
        Case("just 1 | asyncMap delay 51️⃣x", "unknown duration unit 'x'"),
        Case("let s = subject\ns.1️⃣sned 1", "unknown subject command 'sned'"),
        Case("just 1 |\n  1️⃣mapp { $0 }", "unknown operator 'mapp'"),
        Case("just 1 | sink 1️⃣5", "too many arguments for 'sink'"),
        Case("expect values 1️⃣5", "expect values needs an array"),
        Case("just 1 | 1️⃣| map { $0 }", "expected a stage after '|', found '|'"),
        Case("let t = just 1\n1️⃣t.send 1", "'t' is not a subject"),
        Case("just 1 | asyncMap flaky 1️⃣\"x\"", "asyncMap flaky expects a non-negative integer, got \"x\""),
        Case("just 1 | collect 1️⃣0", "collect expects a positive integer, got 0"),
        Case("just 1 | map { 1️⃣bogus(1) }", nil),
        Case("just 1 | map { $0 1️⃣$1 }", "expected '}' to close '{' opened at 1:14, found '$1'"),
        Case("just 1 | map { 1️⃣nope + 1 }", "unknown name 'nope' in an expression"),
        Case("just 1 | map { 1 + 1️⃣nope }", "unknown name 'nope' in an expression"),
        Case("just [1, 2 1️⃣3]", "expected ']' to close '[' opened at 1:6, found '3'"),
        Case("just 1 | map { $0 < 1 1️⃣< 2 }", "comparisons cannot be chained"),
        Case("just 1 | asyncMap delay 1️⃣1000000000000000h", "duration '1000000000000000h' is too long: the longest is 2555555h (about 291 years)"),
        Case("timer 1️⃣2562047h", "duration '2562047h' is too long: the longest is 2555555h (about 291 years)"),
        // Caps: nesting depth and pipeline length, below, at and above the limit, and at 100,000.
        Case("just " + String(repeating: "[", count: Parser.maxNesting - 1) + String(repeating: "]", count: Parser.maxNesting - 1), nil),
        Case("just " + String(repeating: "[", count: Parser.maxNesting) + String(repeating: "]", count: Parser.maxNesting), nil),
        Case("just " + String(repeating: "[", count: Parser.maxNesting) + "1️⃣[" + String(repeating: "]", count: Parser.maxNesting + 1), "nesting is too deep"),
        Case("just " + String(repeating: "[", count: Parser.maxNesting) + "1️⃣" + String(repeating: "[", count: deep - Parser.maxNesting), "nesting is too deep"),
        Case(
            "just 1 | map { " + String(repeating: "!", count: Parser.maxNesting - 1) + "1️⃣" + String(repeating: "!", count: deep) + "true }",
            "nesting is too deep"),
        Case(
            "just 1 | map " + String(repeating: "{ just 1 | map ", count: Parser.maxNesting) + "1️⃣" + String(repeating: "{ just 1 | map ", count: deep),
            "nesting is too deep"),
        Case("just 1 | map { 1️⃣$0" + String(repeating: " + 1", count: deep) + " }", "expression is too complex"),
        Case("just 1" + String(repeating: " | map { $0 }", count: Parser.maxStages - 1), nil),
        Case("just 1" + String(repeating: " | map { $0 }", count: Parser.maxStages - 1) + " | 1️⃣map { $0 }", "pipeline is too long"),
        Case(
            "just 1" + String(repeating: " | map { $0 }", count: Parser.maxStages - 1) + " | 1️⃣map { $0 }" + String(repeating: " | map { $0 }", count: deep),
            "pipeline is too long"),
        Case("just \"" + String(repeating: "a", count: 1 << 20) + "\"", nil),
        Case("just 1 | map { $0 } 1️⃣" + String(repeating: "@", count: 1 << 20), "unexpected character '@'"),
    ]

    @Test("each bad input gives its message at its line and column, never a crash", arguments: cases)
    func badInput(_ c: Case) {
        let (text, line, column) = unmark(c.text)
        let session = Session(runtime: Runtime(clock: .virtual))
        let (_, diagnostics) = session.compile(text, file: "t")
        let errors = diagnostics.filter { $0.severity == .error }
        guard let message = c.message else {
            if line == 0 {
                #expect(errors.isEmpty, "\(errors.map(\.description))")
            } else {
                // A marked case without a message expects no syntax error, only a runtime one.
                #expect(errors.isEmpty || errors[0].location.line == line)
            }
            return
        }
        // The expected error comes first, or (for caps inside unterminated brackets) among the errors.
        guard let first = errors.first(where: { $0.message.contains(message) }) ?? errors.first else {
            Issue.record("no error for \(c)")
            return
        }
        #expect(first.message.contains(message), "got: \(first.message)")
        #expect(first.location.line == line && first.location.column == column, "got \(first.location) for \(first.message)")
        #expect(first.location.file == "t")
        for d in diagnostics { checkInside(d, text) }
        // Rendering never crashes and shows the message.
        #expect(first.rendered(source: text, color: false).contains(message))
    }

    @Test("diagnostics are collected across statements, not stopped at the first")
    func recovery() {
        let d = diagnose("jsut 1\njust 1 | retyr 2\njust 1 | mpa { $0 }\njust 1")
        #expect(d.map(\.location.line) == [1, 2, 3])
        #expect(d.map(\.help) == ["did you mean 'just'?", "did you mean 'retry'?", "did you mean 'map'?"])
    }

    @Test("rendering: file:line:col, the source line, caret and tildes, help")
    func rendering() {
        let text = "just 1 | retyr 3"
        let d = diagnose(text)[0]
        #expect(
            d.rendered(source: text, color: false) == """
                t:1:10: error[E302]: unknown operator 'retyr'
                just 1 | retyr 3
                         ^~~~~
                help: did you mean 'retry'?
                """)
        #expect(d.rendered(source: text, color: true).contains("\u{1B}["))
    }

    @Test("a first line other than 1 shifts locations and rendering still finds the line")
    func firstLine() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let text = "just 1\njust 1 | retyr 3"
        let d = session.compile(text, file: "<repl>", firstLine: 41).diagnostics[0]
        #expect(d.location == SourceLocation(file: "<repl>", line: 42, column: 10))
        #expect(d.rendered(source: text, color: false).contains("just 1 | retyr 3\n         ^~~~~"))
    }

    @Test("needsContinuation: trailing |, open brackets; never an unterminated string (strings do not span lines)")
    func continuation() {
        #expect(Session.needsContinuation("just 1 |"))
        #expect(Session.needsContinuation("just 1 | map {"))
        #expect(Session.needsContinuation("from [1,"))
        #expect(Session.needsContinuation("just 1 | merge (just 2"))
        #expect(!Session.needsContinuation("just \"abc"))
        #expect(!Session.needsContinuation("just 1 | map { \"abc"))
        #expect(!Session.needsContinuation("just \"a \\(1 + "))
        #expect(!Session.needsContinuation("just 1"))
        #expect(!Session.needsContinuation("just 1 # |"))
        #expect(!Session.needsContinuation(""))
    }

    @Test("a continued pipeline across lines is one statement")
    func multiline() {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, d) = session.compile("from [1,\n 2] |\n map {\n $0 * 2 }\njust 3", file: "t")
        #expect(d.isEmpty)
        #expect(statements.count == 2)
        #expect(statements[1].location.line == 5)
    }
}

func checkInside(_ d: Diagnostic, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    #expect(d.offset >= 0 && d.offset <= text.utf8.count, sourceLocation: sourceLocation)
    #expect(d.location.line >= 1 && d.location.line <= lines.count, sourceLocation: sourceLocation)
    if d.location.line >= 1 && d.location.line <= lines.count {
        let count = lines[d.location.line - 1].unicodeScalars.count
        #expect(d.location.column >= 1 && d.location.column <= count + 1, sourceLocation: sourceLocation)
        #expect(d.length >= 0 && d.location.column - 1 + d.length <= count + 1, sourceLocation: sourceLocation)
    }
}
