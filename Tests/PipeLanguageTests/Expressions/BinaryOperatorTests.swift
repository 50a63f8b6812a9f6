import Testing

@testable import PipeLanguage

/// The binary operators' table (`Expressions/BinaryOperators.swift`): each row holds its level,
/// evaluation, kind rule, infallibility rule and Swift spelling, and these tests hold every row to
/// all of them, as `BuiltinFunctionTests` holds the functions.
@Suite struct BinaryOperatorTests {
    static func expression(_ text: String) throws -> Expr {
        var parser = Parser(source: SourceText(text, file: "t"))
        return try parser.parseExpression()
    }

    @Test("every symbol is one row, and the parser's levels hold exactly the table's symbols")
    func registry() {
        #expect(Set(BinaryOperator.symbols).count == BinaryOperator.all.count, "two rows with one symbol")
        let levels = BinaryOperator.Level.allCases.map(BinaryOperator.symbols(at:))
        #expect(levels.reduce(0) { $0 + $1.count } == BinaryOperator.all.count)
        #expect(Parser.binaryOperators == Set(BinaryOperator.symbols).union(["..."]))
    }

    @Test("the language's precedence order is Swift's, so a translation groups as the language does")
    func precedenceMatchesSwift() {
        for a in BinaryOperator.all {
            for b in BinaryOperator.all {
                #expect(
                    (a.level.rawValue < b.level.rawValue) == (a.swiftPrecedence < b.swiftPrecedence),
                    "\(a.symbol) and \(b.symbol)")
            }
        }
    }

    @Test(
        "every row is complete: its example lexes, parses and prints back as it, and evaluates to its value, which its kind rule, infallibility rule and Swift spelling agree on",
        arguments: BinaryOperator.symbols)
    func complete(_ symbol: String) throws {
        let row = try #require(BinaryOperator.named(symbol))
        #expect(!row.summary.isEmpty)
        let example = try Self.expression(row.example.expression)
        guard case .binary(let op, let lhs, let rhs) = example.kind else {
            Issue.record("\(row.example.expression) is not a binary operation")
            return
        }
        #expect(op == symbol)
        #expect(Printer.print(example) == row.example.expression)
        let value = row.example.value
        let compiled = ExpressionCompiler(source: SourceText(row.example.expression, file: "t")).compile(example)
        #expect(try compiled(.none) == value)

        let (ka, kb) = (ExpressionKinds.infer(lhs, []).kind, ExpressionKinds.infer(rhs, []).kind)
        #expect(row.kind.result(ka, kb).kind == ValueKind.of(value), "kind rule of \(row.example.expression)")
        #expect(ExpressionKinds.infer(example, []).kind == ValueKind.of(value))
        let certain = row.infallible(ka == .null ? nil : ka, kb == .null ? nil : kb, nil).kind
        #expect(certain == nil || certain == ValueKind.of(value), "infallibility rule of \(row.example.expression)")

        var swift = SwiftExpressions(names: [], kinds: [])
        let translated = swift.translate(example)
        #expect(translated.text.contains(symbol))
        // `??` has no faithful Swift form (Swift's needs an Optional, and `nil` has no type there):
        // the translation says so. The others translate faithfully.
        if symbol != "??" {
            #expect(translated.kind == ValueKind.of(value))
            #expect(swift.problems.isEmpty, "\(swift.problems)")
        } else {
            #expect(!swift.problems.isEmpty)
        }
    }

    /// Values of each kind that break things: the ends of Int, zero, -1, huge and non-whole
    /// Doubles, empty and odd strings, empty arrays, nil.
    static let hostile: [ValueKind: [Value]] = [
        .int: [.int(.min), .int(.max), .int(0), .int(-1), .int(7)],
        .double: [.double(1e308), .double(-1e308), .double(0), .double(-0.0), .double(-2.5), .double(.leastNonzeroMagnitude)],
        .string: [.string(""), .string("a"), .string("12"), .string("ÄÖ✓")],
        .bool: [.bool(true), .bool(false)],
        .array(.int): [.array([]), .array([.int(1)])],
        .null: [.null],
    ]

    @Test(
        "the rules never promise what evaluation breaks: proved infallible or 'cannot fail' means no error over hostile values; refused before the run means it fails at run time once the right side is evaluated",
        arguments: BinaryOperator.symbols)
    func rulesHoldOverHostileValues(_ symbol: String) throws {
        let row = try #require(BinaryOperator.named(symbol))
        var refusedSomething = false
        for (ka, xs) in Self.hostile {
            for (kb, ys) in Self.hostile {
                // An array's element kind is never certain; nil is no certain kind.
                func certain(_ k: ValueKind) -> ValueKind? { k == .null ? nil : k == .array(.int) ? .array(.any) : k }
                let typed = row.kind.result(ka, kb)
                let refused = ka != .null && kb != .null && !row.kind.accepts(ka, kb)
                refusedSomething = refusedSomething || refused
                for x in xs {
                    for y in ys {
                        var failure: Message?
                        var result: Value?
                        do throws(Message) {
                            result = try Self.evaluate(row, x, y)
                        } catch { failure = error }
                        for literal in [nil, y] {
                            let proof = row.infallible(certain(ka), certain(kb), literal)
                            guard proof.safe else { continue }
                            #expect(failure == nil, "\(x) \(symbol) \(y) was proved infallible: \(failure?.text ?? "")")
                            if let k = proof.kind, let result {
                                #expect(ValueKind.of(result) == k || k == .array(.any), "\(x) \(symbol) \(y)")
                            }
                        }
                        // The kind rule follows Swift, where Double arithmetic overflows to
                        // infinity and does not throw (the pipeline's Swift type keeps `Never`);
                        // the interpreter fails there instead, and `Infallibility` knows it.
                        let doubleOverflow =
                            (ka == .double || kb == .double) && failure?.text.hasPrefix("arithmetic overflow") == true
                        if !typed.mayFail && !doubleOverflow {
                            #expect(failure == nil, "\(x) \(symbol) \(y): the kind rule says it cannot fail")
                            if let result, typed.kind != .any, !Self.isArray(typed.kind) {
                                #expect(ValueKind.of(result) == typed.kind, "\(x) \(symbol) \(y)")
                            }
                        }
                        if refused && !Self.decidedByLeft(row, x) {
                            #expect(failure != nil, "\(x) \(symbol) \(y) is refused before the run but works")
                        }
                    }
                }
            }
        }
        if !row.kind.accepts(.string, .bool) || !row.kind.accepts(.int, .string) {
            #expect(refusedSomething, "\(symbol) says what it refuses but refuses nothing")
        }
    }

    static func isArray(_ k: ValueKind) -> Bool { if case .array = k { true } else { false } }

    static func evaluate(_ row: BinaryOperator, _ x: Value, _ y: Value) throws(Message) -> Value {
        switch row.evaluate {
        case .strict(let f): return try f(x, y)
        case .shortCircuit(let decide, let right):
            if let decided = try decide(x) { return decided }
            return try right(y)
        }
    }

    /// Whether a short-circuiting operator gives its result without evaluating the right side.
    static func decidedByLeft(_ row: BinaryOperator, _ x: Value) -> Bool {
        guard case .shortCircuit(let decide, _) = row.evaluate else { return false }
        return ((try? decide(x)) ?? nil) != nil
    }

    @Test(
        "the interpreter evaluates the right side of a short-circuiting operator only when the left does not decide",
        arguments: [
            ("false && $0[5]", Value.bool(false)), ("true || $0[5]", .bool(true)), ("1 ?? $0[5]", .int(1)),
        ])
    func shortCircuits(_ text: String, _ expected: Value) throws {
        let compiled = ExpressionCompiler(source: SourceText(text, file: "t")).compile(try Self.expression(text))
        #expect(try compiled(ClosureArguments(.array([]))) == expected)
    }
}

/// The interpreter computes two Ints with the row's `onInts` inline and falls back to the row's
/// evaluation only where that gives nil: both must agree on every result, at the ends of Int too.
@Suite struct IntKernelTests {
    static let ints = [Int.min, Int.min + 1, -7, -2, -1, 0, 1, 2, 3, 7, Int.max - 1, Int.max]

    @Test("each row's Int kernel gives the row's own result, and gives nil only where the row fails", arguments: BinaryOperator.symbols)
    func kernelAgreesWithRow(_ symbol: String) throws {
        let row = try #require(BinaryOperator.named(symbol))
        guard let kernel = row.onInts else {
            guard case .shortCircuit = row.evaluate else {
                Issue.record("\(symbol) takes Ints but has no kernel")
                return
            }
            return
        }
        for a in Self.ints {
            for b in Self.ints {
                let general = Result(catching: { try row.evaluate.apply(.int(a), { .int(b) }) })
                switch (kernel.apply(a, b), general) {
                case (let fast?, .success(let value)): #expect(fast == value && ValueKind.of(fast) == ValueKind.of(value), "\(a) \(symbol) \(b)")
                case (nil, .failure): break
                case (let fast, let general): Issue.record("\(a) \(symbol) \(b): kernel \(String(describing: fast)), row \(general)")
                }
            }
        }
    }

    @Test(
        "a compiled closure over Ints gives what the row gives, and fails with the row's message at the operator",
        arguments: [
            ("$0 * 3", Value.int(Int.max / 3), Value.int(Int.max / 3 * 3)),
            ("$0 % 2 == 0", .int(-4), .bool(true)),
            ("$0 - 1 < $0", .int(5), .bool(true)),
            ("$0 / 2", .double(5), .double(2.5)),
            ("$0 + $0", .string("a"), .string("aa")),
        ])
    func compiledMatchesRow(_ text: String, _ input: Value, _ expected: Value) throws {
        let expression = try BinaryOperatorTests.expression(text)
        let compiled = ExpressionCompiler(source: SourceText(text, file: "t")).compile(expression)
        let result = try compiled(ClosureArguments(input))
        #expect(result == expected && ValueKind.of(result) == ValueKind.of(expected))
    }

    @Test(
        "overflow, a zero divisor and a wrong kind still fail with the row's message and position",
        arguments: [
            ("$0 * 3", Value.int(Int.max), "arithmetic overflow: 9223372036854775807 * 3"),
            ("$0 % 0 == 0", .int(1), "division by zero: 1 % 0"),
            ("$0 + 1", .string("a"), "cannot apply '+' to String \"a\" and Int 1"),
        ])
    func failures(_ text: String, _ input: Value, _ message: String) throws {
        let expression = try BinaryOperatorTests.expression(text)
        let compiled = ExpressionCompiler(source: SourceText(text, file: "t")).compile(expression)
        #expect {
            try compiled(ClosureArguments(input))
        } throws: { error in
            (error as? PipelineError)?.message == message && (error as? PipelineError)?.location?.column == 1
        }
    }
}
