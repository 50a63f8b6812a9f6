import Testing

@testable import PipeLanguage

/// The members' and prefix operators' tables (`Expressions/MemberCalls.swift`,
/// `Expressions/UnaryOperator.swift`): each row holds its evaluation, kind rule, infallibility rule
/// and Swift spelling, and these tests hold every row to them, as `BuiltinFunctionTests` does for
/// calls. The expectations are the language's behaviour before the tables (issue 35: the names
/// were matched in five files), so moving them into rows changed nothing a user sees.
@Suite struct MemberAndUnaryTests {
    typealias Outcome = BuiltinFunctionTests.Outcome

    /// An expression over `$0`, `$0`'s value, and what it gives.
    static let cases: [(expression: String, dollar: Value, outcome: Outcome)] = [
        ("$0.count", .array([.int(1), .int(2)]), .value(.int(2))),
        ("$0.count", .string("ÄÖ✓"), .value(.int(3))),
        ("$0.count", .int(5), .error("unknown-member", "Int has no member 'count'")),
        ("$0.isEmpty", .string(""), .value(.bool(true))),
        ("$0.isEmpty", .array([.int(1)]), .value(.bool(false))),
        ("$0.first", .array([]), .value(.null)),
        ("$0.last", .array([.int(1), .int(9)]), .value(.int(9))),
        ("$0.first", .string("ab"), .error("unknown-member", "String has no member 'first'")),
        ("$0.uppercased()", .string("abc"), .value(.string("ABC"))),
        ("$0.uppercased", .string("abc"), .value(.string("ABC"))),
        ("$0.lowercased()", .string("ÄB"), .value(.string("äb"))),
        ("$0.lowercased()", .int(1), .error("unknown-member", "Int has no member 'lowercased'")),
        ("$0.nope", .string("a"), .error("unknown-member", "String has no member 'nope'")),
        ("-$0", .int(3), .value(.int(-3))),
        ("-$0", .double(2.5), .value(.double(-2.5))),
        ("-$0", .int(.min), .error("arithmetic-overflow", "arithmetic overflow: -(-9223372036854775808)")),
        ("!$0", .bool(false), .value(.bool(true))),
        ("!$0", .int(1), .error("not-operand-not-bool", "'!' needs a Bool")),
    ]

    @Test("members and prefix operators give what they gave before the tables, values and errors by id")
    func evaluates() throws {
        for (expression, dollar, expected) in Self.cases {
            let got = try BuiltinFunctionTests.outcome(expression, ClosureArguments(dollar))
            #expect(got.description == expected.description, "\(expression) with $0 = \(dollar)")
        }
    }

    @Test("every member row is complete: its example evaluates to its value, which its rules and Swift spelling agree on", arguments: MemberCall.names)
    func memberComplete(_ name: String) throws {
        let row = try #require(MemberCall.named(name))
        #expect(!row.summary.isEmpty)
        let example = try BuiltinFunctionTests.expression(row.example.expression)
        guard case .member(let base, let called) = example.kind else {
            Issue.record("\(row.example.expression) is not a member")
            return
        }
        #expect(called == name)
        let value = row.example.value
        #expect(try BuiltinFunctionTests.outcome(row.example.expression, .none).description == Outcome.value(value).description)
        let baseKind = ExpressionKinds.infer(base, []).kind
        #expect(row.kind(baseKind).kind == ValueKind.of(value), "kind rule of \(row.example.expression)")
        #expect(!row.kind(baseKind).mayFail)
        let certain = row.infallible(baseKind)
        #expect(certain.safe)
        #expect(certain.kind == nil || certain.kind == ValueKind.of(value))
        var translation = SwiftExpressions(names: [], kinds: [])
        let swift = translation.translate(example)
        #expect(swift.kind == ValueKind.of(value) || name == "first" || name == "last", "\(swift)")
        #expect(swift.text.hasSuffix(row.isMethod ? ".\(name)()" : ".\(name)"))
        // The printer writes a method's parentheses, so printing round-trips through the parser.
        #expect(Printer.print(example) == row.example.expression)
    }

    @Test("every prefix operator row is complete: its example evaluates to its value, which its rules agree on", arguments: UnaryOperator.all.map(\.symbol))
    func unaryComplete(_ symbol: String) throws {
        let row = try #require(UnaryOperator.named(symbol))
        #expect(!row.summary.isEmpty)
        let example = try BuiltinFunctionTests.expression(row.example.expression)
        guard case .unary(let op, let operand) = example.kind else {
            Issue.record("\(row.example.expression) is not a prefix operation")
            return
        }
        #expect(op == symbol)
        let value = row.example.value
        #expect(try BuiltinFunctionTests.outcome(row.example.expression, .none).description == Outcome.value(value).description)
        let operandKind = ExpressionKinds.infer(operand, []).kind
        #expect(row.accepts(operandKind))
        #expect(row.kind(operandKind).kind == ValueKind.of(value))
        var problems: [String] = []
        let swift = row.swift("x", operandKind, &problems)
        #expect(swift.text == symbol + "x")
        #expect(swift.kind == ValueKind.of(value))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the checker refuses a prefix operator on a known kind its row does not accept")
    func refusedStatically() {
        for (text, refused) in [("-\"a\"", true), ("!3", true), ("-3.5", false), ("!true", false)] {
            let expression = try? BuiltinFunctionTests.expression(text)
            let problem = expression.flatMap { ExpressionCheck.problem(in: $0, dollars: []) }
            #expect((problem != nil) == refused, "\(text): \(String(describing: problem))")
        }
    }
}
