import Testing
@testable import PipeLanguage

/// A closure the static pass calls infallible is built over a non-throwing operator, where a
/// failure would have nowhere to go: these tests hold the pass to the interpreter.
@Suite("Closures that cannot fail")
struct InfallibilityTests {
    static func expression(_ text: String) throws -> Expr {
        var parser = Parser(source: SourceText(text, file: "t"))
        return try parser.parseExpression()
    }

    @Test(
        "the pass decides as the interpreter would",
        arguments: [
            ("$0 % 2 == 0", ValueKind.int, true),
            ("$0 > 1", .int, true),
            ("$0 > 1.5 && $0 < 10", .int, true),
            ("$0 == \"a\" || $0.count > 3", .string, true),
            ("$0 / 7", .int, true),
            ("String($0)", .any, true),
            ("\"n=\\($0)\"", .int, true),
            ("$0.isEmpty ? 0 : $0.count", .array(.int), true),
            ("-$0", .double, true),
            ("$0 * 3", .int, false),  // overflows at Int.max / 3
            ("$0 + 0.5", .double, false),  // overflows to infinity
            ("$0 % -1", .int, false),  // Int.min % -1 overflows
            ("$0 / 0", .int, false),
            ("$0 % $0", .int, false),  // the divisor may be 0
            ("-$0", .int, false),  // -Int.min
            ("$0 > 1", .any, false),  // a String or nil would not compare with 1
            ("$0.first % 2", .array(.int), false),  // first of [] is nil
            ("$0[0]", .array(.int), false),
            ("abs($0)", .int, false),
            ("\"\\($0)\"", .string, false),  // a string piece may pass the size cap
            ("$1", .int, false),
        ])
    func decides(_ text: String, _ kind: ValueKind, _ expected: Bool) throws {
        #expect(Infallibility.cannotFail(try Self.expression(text), dollars: [kind]) == expected)
    }

    @Test("a condition is infallible only when it certainly yields a Bool")
    func conditions() throws {
        #expect(Infallibility.isCertainCondition(try Self.expression("$0 % 2 == 0"), dollars: [.int]))
        #expect(!Infallibility.isCertainCondition(try Self.expression("$0 % 2"), dollars: [.int]))
        #expect(!Infallibility.isCertainCondition(try Self.expression("$0 ?? true"), dollars: [.any]))
    }

    /// Values of each kind that break arithmetic: the ends of Int, zero, -1, huge Doubles, the
    /// empty string and array.
    static let hostile: [ValueKind: [Value]] = [
        .int: [.int(.min), .int(.max), .int(0), .int(-1), .int(1), .int(7)],
        .double: [.double(1e308), .double(-1e308), .double(0), .double(-0.0), .double(.leastNonzeroMagnitude), .double(2.5)],
        .string: [.string(""), .string("a"), .string("ÄÖ✓"), .string(String(repeating: "x", count: 1000))],
        .bool: [.bool(true), .bool(false)],
        .array(.int): [.array([]), .array([.int(.min)]), .array([.int(1), .int(2)])],
    ]

    /// A small random expression generator over the closure language.
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func leaf() -> String {
            ["$0", "$0", "$0", "0", "1", "-1", "2", "3", "2.5", "1e308", "\"s\"", "true", "false", "nil", "[1, 2]"][next(15)]
        }
        mutating func expression(depth: Int) -> String {
            if depth == 0 || next(4) == 0 { return leaf() }
            let a = expression(depth: depth - 1)
            switch next(7) {
            case 0, 1, 2:
                // Every binary operator, from the table: a new row is tested here too.
                let ops = BinaryOperator.symbols
                return "(\(a) \(ops[next(ops.count)]) \(expression(depth: depth - 1)))"
            case 3: return ["!", "-"][next(2)] + "(\(a))"
            case 4: return "(\(a) ? \(expression(depth: depth - 1)) : \(expression(depth: depth - 1)))"
            case 5:
                // Every built-in function, from the table: a new row is tested here too.
                let one = BuiltinFunction.all.filter { $0.arity == 1 }.map(\.name)
                let two = BuiltinFunction.all.filter { $0.arity == 2 }.map(\.name)
                return next(3) == 0 ? "\(two[next(two.count)])(\(a), \(expression(depth: depth - 1)))" : "\(one[next(one.count)])(\(a))"
            default:
                return next(3) == 0 ? "\"v\\(\(a))\"" : "\(a).\(["count", "isEmpty", "first", "last", "uppercased"][next(5)])"
            }
        }
    }

    @Test("no expression the pass calls infallible throws, over hostile values of its input's kind")
    func generatedExpressionsNeverThrowWhenProvedSafe() throws {
        var generator = Generator(state: 0x5eed)
        var proved = 0
        var checked = 0
        for _ in 0..<4_000 {
            let text = generator.expression(depth: 4)
            guard let e = try? Self.expression(text) else { continue }
            let compiled = ExpressionCompiler(source: SourceText(text, file: "t")).compile(e)
            for (kind, values) in Self.hostile where Infallibility.cannotFail(e, dollars: [kind]) {
                proved += 1
                for v in values {
                    checked += 1
                    #expect(throws: Never.self, "\(text) with $0 = \(v)") { _ = try compiled(ClosureArguments(v)) }
                }
            }
        }
        // The generator must reach both sides of the decision for the test to mean anything.
        #expect(proved > 500, "only \(proved) expressions proved infallible")
        #expect(checked > 2_000)
    }

    @Test("an infallible stage runs as before; a fallible one still fails with its position")
    func stagesKeepTheirBehaviour() {
        #expect(
            run("from 1...6 | filter { $0 % 2 == 0 } | map { $0 / 2 }") == [
                "0 subscribed", "0 value 1", "0 value 2", "0 value 3", "0 finished",
            ])
        let overflow = run("from [9223372036854775807] | filter { $0 > 0 } | map { $0 * 3 }")
        #expect(overflow.last?.contains("failed") == true)
        #expect(overflow.last?.contains("overflow") == true)
        #expect(run("from [1, 2, 3, 4] | first where: { $0 > 2 }") == ["0 subscribed", "0 value 3", "0 finished"])
        #expect(run("from [1, 2, 3] | allSatisfy { $0 < 5 }") == ["0 subscribed", "0 value true", "0 finished"])
        #expect(run("from [1, 2, 3, 1] | drop while: { $0 < 3 }") == ["0 subscribed", "0 value 3", "0 value 1", "0 finished"])
        #expect(
            run("from [\"a\", \"bb\", \"c\"] | compactMap { $0.count > 1 ? nil : $0 }") == [
                "0 subscribed", "0 value \"a\"", "0 value \"c\"", "0 finished",
            ])
    }
}
