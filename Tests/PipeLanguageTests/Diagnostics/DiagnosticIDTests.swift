import Foundation
import Synchronization
import Testing
@testable import PipeLanguage

@Suite struct DiagnosticIDTests {
    @Test("every id has a unique code and a unique name, numbered within its layer's range")
    func unique() {
        let all = DiagnosticID.all
        #expect(Set(all.map(\.code)).count == all.count, "duplicate codes: \(all.map(\.code))")
        #expect(Set(all.map(\.name)).count == all.count, "duplicate names: \(all.map(\.name))")
        for id in all {
            #expect(id.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)")
            #expect(id.code.hasPrefix(id.severity == .warning ? "W" : "E"), "\(id)")
        }
        let ranges: [String: ClosedRange<Int>] = ["lexer": 100...199, "parser": 200...299, "evaluation": 600...699]
        for (layer, range) in ranges {
            let ids = all.filter { $0.layer == layer }
            #expect(!ids.isEmpty, "no ids for \(layer)")
            #expect(ids.allSatisfy { range.contains($0.number) }, "\(layer): \(ids)")
        }
    }

    @Test("every id is classified: no placeholder is left in any layer")
    func classified() {
        for id in DiagnosticID.all {
            #expect(!id.name.hasPrefix("unclassified"), "\(id)")
        }
    }

    /// One case per bad input (`BadInputTests.cases`), not one loop: the loop held one of the
    /// parallel run's two cooperative threads for 23.5 s.
    @Test("no bad input produces an unclassified id", arguments: BadInputTests.cases)
    func classifiedInput(_ c: BadInputTests.Case) {
        let (_, diagnostics) = parse(unmark(c.text).text)
        for d in diagnostics {
            #expect(!d.id.name.hasPrefix("unclassified"), "\(c): \(d.message) has \(d.id)")
        }
    }

    @Test("ids are found by code or name, ignoring case")
    func named() {
        #expect(DiagnosticID.named("E101")?.name == "unterminated-string")
        #expect(DiagnosticID.named("e101")?.name == "unterminated-string")
        #expect(DiagnosticID.named("unterminated-string")?.code == "E101")
        #expect(DiagnosticID.named("division-by-zero")?.layer == "evaluation")
        #expect(DiagnosticID.named("no-such-thing") == nil)
    }
}

@Suite struct SyntaxDiagnosticIDTests {
    static let cases: [(text: String, id: String)] = [
        ("just \"abc", "unterminated-string"),
        ("just \"a\\(1", "unterminated-interpolation"),
        ("just \"a\\qb\"", "invalid-escape"),
        ("just \"\\u{zz}\"", "invalid-unicode-escape"),
        ("just \"a\u{01}b\"", "control-character-in-string"),
        ("just 1 | map { $0 * 2", "unterminated-closure"),
        ("from [1, 2", "unterminated-array"),
        ("just 1 | merge (just 2", "unterminated-parenthesis"),
        ("just 99999999999999999999", "integer-literal-overflow"),
        ("just 1.5e999", "floating-point-literal-too-large"),
        ("just 1 | asyncMap delay 5x", "unknown-duration-unit"),
        ("just 1 | asyncMap delay 1000000000000000h", "duration-too-long"),
        ("just 1 | map { $ }", "missing-closure-argument-number"),
        ("just 1 | map { $123 }", "closure-argument-out-of-range"),
        ("just 1 @", "unexpected-character"),
        ("just 1 \u{07}", "control-character"),
        ("just 1 \u{FFFD}", "invalid-utf8"),
        ("just 1 | map { $0 } )", "unexpected-token-after-statement"),
        ("let x = ", "missing-binding-pipeline"),
        ("let x = just 1 &", "background-binding"),
        ("let = 5", "missing-binding-name"),
        ("let x just 1", "missing-binding-equals"),
        ("s.send |", "send-needs-value"),
        ("s.fail |", "fail-needs-message"),
        ("s.sned 1", "unknown-subject-command"),
        ("expect values 5", "expect-values-needs-array"),
        ("expect failed 5", "expect-failed-needs-message"),
        ("expect count |", "expect-count-needs-number"),
        ("expect time |", "expect-time-needs-duration"),
        ("expect subscriptions 3", "expect-subscriptions-needs-binding"),
        ("expect subscriptions ticks", "expect-subscriptions-needs-binding"),
        ("expect started |", "expect-started-needs-duration"),
        ("just 1 |", "trailing-pipe"),
        ("just 1 | | map { $0 }", "missing-stage"),
        ("just 1 | 5", "expected-stage"),
        ("just 1 | first where:", "missing-label-value"),
        ("just 1 | first where: | sink", "unexpected-token-after-label"),
        ("just 1 | asyncMap delay -100ms", "negative-duration"),
        ("just 1 | map { $0 } |> 2", "expected-stage"),
        ("just 1 | map { $0 $1 }", "unclosed-bracket"),
        ("just 1 | map { $0 ? 1 2 }", "expected-token"),
        ("just " + String(repeating: "[", count: Parser.maxNesting + 1) + String(repeating: "]", count: Parser.maxNesting + 1), "nesting-too-deep"),
        ("just 1 | map { $0" + String(repeating: " + 1", count: Parser.maxExpressionDepth + 1) + " }", "expression-too-complex"),
        ("just 1 | map { }", "empty-closure"),
        ("just 1 | map { $0 < 1 < 2 }", "chained-comparison"),
        ("just 1 | map { $0 + 100ms }", "duration-in-expression"),
        ("just 1 | map { $0 == tru }", "unknown-name"),
        ("from [1] | flatMap { $0 > 0 ? (just 1) : 5 }", "branch-not-publisher"),
        ("just 1\nexpect marbles 3", "expect-marbles-needs-string"),
        ("just 1 | map { $0 + }", "expected-value"),
        ("from 1..<5", "half-open-range"),
        ("expect nothing", "unknown-expectation"),
        ("just 1 | filter { $0 = 1 }", "assignment-in-expression"),
        ("just \"\\(1 2)\"", "unexpected-token-in-interpolation"),
        ("just \"\\()\"", "empty-interpolation"),
        ("just 1 | map { $0 } : x", "expected-argument"),
    ]

    @Test("lexer and parser errors by id", arguments: cases)
    func byID(_ text: String, _ id: String) {
        let (_, d) = parse(text)
        #expect(!d.isEmpty, "no diagnostic for \(text)")
        guard !d.isEmpty else { return }
        #expect(d[0].id.name == id, "\(text): \(d[0].message)")
        #expect(DiagnosticID.all.contains(d[0].id))
        #expect(d[0].id.layer == "lexer" || d[0].id.layer == "parser")
    }

    @Test("every lexer and parser id has a case above (a new message needs a test)")
    func everyIDTested() {
        let tested = Set(Self.cases.map(\.id)).union(["too-many-errors", "pipeline-too-long", "invalid-interpolation"])
        for id in LexerCode.ids + ParserCode.ids {
            #expect(tested.contains(id.name), "no case for \(id)")
        }
    }

    @Test("the caps and the rarer errors by id")
    func rare() {
        let many = String(repeating: "1\n", count: Parser.maxDiagnostics + 1)
        #expect(parse(many).1.last?.id.name == "too-many-errors")
        let long = "just 1" + String(repeating: " | map { $0 }", count: Parser.maxStages)
        #expect(parse(long).1.first?.id.name == "pipeline-too-long")
        #expect(parse("just \"\\(1 @)\"").1.map(\.id.name).contains("invalid-interpolation"))
    }
}

@Suite struct FixItTests {
    static let cases: [(text: String, fixed: String)] = [
        ("just \"abc", "just \"abc\""),
        ("just \"abc  ", "just \"abc\"  "),
        ("from [1, 2", "from [1, 2]"),
        ("just 1 | map { $0 * 2", "just 1 | map { $0 * 2 }"),
        ("just 1 | map { $0 * 2  # double", "just 1 | map { $0 * 2 }  # double"),
        ("just 1 | merge (just 2", "just 1 | merge (just 2)"),
        ("just \"a\\(1\"", "just \"a\\(1)\""),
        ("just \"a\\(1", "just \"a\\(1)\""),
        ("just \"a\u{01}b\"", "just \"a\\u{1}b\""),
        ("just \"\\([1)\"", "just \"\\([1])\""),
        ("let s = subject\ns.sned 1", "let s = subject\ns.send 1"),
        ("just 1 | map { $0 == tru }", "just 1 | map { $0 == true }"),
        ("just 1 | map { $0 + 100ms }", "just 1 | map { $0 + 100 }"),
        ("let x = just 1 &", "let x = just 1"),
        ("let x just 1", "let x = just 1"),
        ("just 1 | asyncMap delay -100ms", "just 1 | asyncMap delay 100ms"),
        ("just 1 |", "just 1"),
        ("just 1 | | map { $0 }", "just 1 | map { $0 }"),
    ]

    @Test("a fix-it applied to the text gives the corrected text, which parses", arguments: cases)
    func applied(_ text: String, _ fixed: String) throws {
        let (_, d) = parse(text)
        let fix = try #require(d.first?.fixIts.first, "no fix-it for \(text): \(d.map(\.message))")
        #expect(fix.applied(to: text) == fixed)
        #expect(parse(fixed).1.isEmpty, "\(fixed): \(parse(fixed).1.map(\.message))")
    }

    /// The bad inputs whose fix-its `inside` checks.
    static let fixItTexts = BadInputTests.cases.map { unmark($0.text).text } + cases.map(\.text)

    /// One case per text (by its index: some are 100,000 characters), not one loop over them all:
    /// the loop held one of the parallel run's two cooperative threads for 18 s.
    @Test("every fix-it of every bad input lies inside its text and changes it", arguments: fixItTexts.indices)
    func inside(_ index: Int) {
        let text = Self.fixItTexts[index]
        for d in parse(text).1 {
            for fix in d.fixIts {
                #expect(fix.offset >= 0 && fix.length >= 0 && fix.offset + fix.length <= text.utf8.count, "\(d.message)")
                #expect(fix.applied(to: text) != text, "\(d.message): \(fix)")
            }
        }
    }

    @Test("prose advice is help, not an edit")
    func proseIsHelp() {
        let d = parse("let = 5").1
        #expect(d[0].help == "let name = …")
        #expect(d[0].fixIts.isEmpty)
        let unclosed = parse("just 1 | map { $0 $1 }").1
        #expect(unclosed[0].help == "add '}'")
        #expect(unclosed[0].fixIts.isEmpty, "where the '}' goes is a guess here")
    }

    @Test("a fix-it outside the text changes nothing")
    func outside() {
        #expect(FixIt(offset: 10, length: 5, replacement: "x").applied(to: "short") == "short")
        #expect(FixIt(offset: 5, length: 0, replacement: "!").applied(to: "short") == "short!")
    }
}

@Suite struct EvaluationDiagnosticIDTests {
    /// Runs `text` on a virtual session and returns the error the pipeline failed with.
    func failure(_ text: String) -> PipelineError? {
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.isEmpty, "\(text): \(diagnostics.map(\.message))")
        guard let statement = statements.last, case .success(.run(let pipeline)) = session.execute(statement) else { return nil }
        let failed = Mutex<PipelineError?>(nil)
        let done = Atomic<Bool>(false)
        let c = pipeline.start(trace: false) { event in
            switch event {
            case .failed(let e): failed.withLock { $0 = e }; done.store(true, ordering: .sequentiallyConsistent)
            case .finished, .cancelled: done.store(true, ordering: .sequentiallyConsistent)
            default: break
            }
        }
        session.runtime.driveVirtualTime { done.load(ordering: .sequentiallyConsistent) }
        withExtendedLifetime(c) {}
        return failed.withLock { $0 }
    }

    static let cases: [(text: String, id: String, message: String)] = [
        ("just 9223372036854775807 | map { $0 + 1 }", "arithmetic-overflow", "arithmetic overflow: 9223372036854775807 + 1"),
        ("just 1 | map { -(-9223372036854775807 - $0) }", "arithmetic-overflow", "arithmetic overflow: -(-9223372036854775808)"),
        ("just 1 | map { abs(-9223372036854775807 - $0) }", "arithmetic-overflow", "arithmetic overflow: abs(-9223372036854775808)"),
        ("just 1 | map { $0 / 0 }", "division-by-zero", "division by zero: 1 / 0"),
        ("just 1.5 | map { $0 % 0 }", "division-by-zero", "division by zero: 1.5 % 0"),
        ("from [\"a\", 1] | map { $0 * 2 }", "operand-type-mismatch", "cannot apply '*' to String \"a\" and Int 2"),
        ("from [\"a\", 1] | map { -$0 }", "cannot-negate", "cannot negate String \"a\""),
        ("from [\"a\", 1] | map { $0 < 1 }", "uncomparable-values", "cannot compare String \"a\" with Int 1"),
        ("from [1, true] | map { !$0 }", "not-operand-not-bool", "'!' needs a Bool"),
        ("from [1, true] | map { $0 && true }", "logical-operand-not-bool", "'&&' needs Bool operands"),
        ("just 1 | map { $0 ? 1 : 2 }", "condition-not-bool", "the condition of '?:' must be a Bool"),
        ("just [1, 2] | map { $0[5] }", "index-out-of-range", "index 5 out of range (count 2)"),
        ("just \"ab\" | map { $0[2] }", "index-out-of-range", "index 2 out of range (count 2)"),
        ("just [1] | map { $0[\"x\"] }", "index-not-int", "index must be an Int, got String \"x\""),
        ("just 1 | map { $0[0] }", "not-indexable", "cannot index Int 1"),
        ("just 1 | map { $0.count }", "unknown-member", "Int has no member 'count'"),
        ("just \"a\" | map { $0...2 }", "range-bounds-not-int", "range bounds must be Int"),
        ("just 5 | map { $0...1 }", "range-bounds-reversed", "range 5...1 has its lower bound above its upper bound"),
        ("just 0 | map { $0...10000000 }", "range-too-large", "range 0...10000000 is too large for a value"),
        ("just \"x\" | map { abs($0) }", "number-expected", "abs needs a number, got String \"x\""),
        ("just \"x\" | map { Int($0) }", "invalid-conversion", "cannot convert \"x\" to Int"),
        ("just [1] | map { Double($0) }", "invalid-conversion", "cannot convert Array [1] to Double"),
        ("from 1...30 | scan \"ab\" { $0 + $0 }", "string-too-large", "string of 33554432 bytes is over the limit of 16777216 bytes (16 MiB)"),
        ("from 1...30 | scan [1, 2] { $0 + $0 }", "array-too-large", "array of 1048576 elements is over the limit of 1000000"),
    ]

    @Test(
        "what the static pass can see is refused before the run: the same operations on known kinds",
        arguments: [
            ("just \"a\" | map { $0 * 2 }", "cannot apply '*' to String and Int"),
            ("just \"a\" | map { -$0 }", "cannot apply '-' to String"),
            ("just 1 | map { !$0 }", "cannot apply '!' to Int"),
        ])
    func staticTwins(_ text: String, _ message: String) {
        let (_, diagnostics) = Session(runtime: Runtime(clock: .virtual)).compile(text, file: "t")
        #expect(diagnostics.map(\.message) == [message])
        #expect(diagnostics.first?.id.name == "impossible-operation")
    }

    @Test("run-time errors by id, with their exact messages", arguments: cases)
    func byID(_ text: String, _ id: String, _ message: String) {
        let error = failure(text)
        #expect(error?.id?.name == id, "\(text): \(String(describing: error))")
        #expect(error?.message == message)
        #expect(error?.id?.layer == "evaluation")
    }

    @Test("the interpreter's compile-time errors (no such function, arity, $2) by id")
    func compiled() {
        let source = SourceText("", file: "t")
        let compiler = ExpressionCompiler(source: source)
        func error(_ e: Expr) -> PipelineError? {
            do { _ = try compiler.compile(e)(.none); return nil } catch { return error as? PipelineError }
        }
        #expect(error(Expr(.dollar(2), .none))?.id?.name == "closure-argument-unavailable")
        #expect(error(Expr(.call("nope", []), .none))?.id?.name == "unknown-function")
        #expect(error(Expr(.call("abs", []), .none))?.id?.name == "wrong-argument-count")
        #expect(error(Expr(.call("abs", []), .none))?.message == "abs takes 1 argument, got 0")
        #expect(error(Expr(.call("min", []), .none))?.message == "min takes 2 arguments, got 0")
    }

    @Test("every evaluation id has a case above")
    func everyIDTested() {
        let tested = Set(Self.cases.map(\.id)).union(["closure-argument-unavailable", "unknown-function", "wrong-argument-count"])
        for id in EvaluationCode.ids {
            #expect(tested.contains(id.name), "no case for \(id)")
        }
    }

    @Test("a user's fail has no id")
    func userFailure() {
        #expect(failure("fail \"boom\"")?.id == nil)
    }
}

/// The golden list `Tests/Golden/diagnostics.txt` (`code name layer`, one a line): ids are
/// promises to users and tools, so renumbering or renaming one must be a deliberate edit of
/// that file, never a side effect of inserting a case.
@Suite struct DiagnosticGoldenListTests {
    static var goldenPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/diagnostics.txt").path
    }

    /// The language's lines of the golden list (the shell's 7xx are checked by the shell's tests).
    static func golden(layers: Set<String>) throws -> [String] {
        let text = try String(contentsOfFile: goldenPath, encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { line in
            layers.contains(line.split(separator: " ").last.map(String.init) ?? "")
        }
    }

    @Test("every language diagnostic keeps the code and name the golden list gives it")
    func matchesGoldenList() throws {
        let layers = Set(DiagnosticID.all.map(\.layer))
        let actual = DiagnosticID.all.map { "\($0.code) \($0.name) \($0.layer)" }
        let expected = try Self.golden(layers: layers)
        let changed = Set(actual).symmetricDifference(expected).sorted()
        #expect(changed.isEmpty, "not as in Tests/Golden/diagnostics.txt: \(changed)")
        #expect(changed.isEmpty ? actual == expected : true, "the golden list is out of order")
    }
}
