import Synchronization
import Testing

@testable import PipeLanguage

/// The built-in functions' table (`Expressions/BuiltinFunctions.swift`): each row holds its
/// evaluation, kind rule, infallibility rule and Swift spelling, and these tests hold every row
/// to all four, as the catalog's tests hold every entry.
@Suite struct BuiltinFunctionTests {
    enum Outcome: Sendable, CustomStringConvertible {
        case value(Value)
        /// The run-time error's id name and message.
        case error(String, String)

        var description: String {
            switch self {
            case .value(let v): "value \(v)"
            case .error(let id, let message): "error \(id): \(message)"
            }
        }
    }

    /// Per function: a call over `$0`, `$0`'s value, and what the call gives. A row without cases
    /// fails `registry`.
    static let cases: [String: [(call: String, dollar: Value, outcome: Outcome)]] = [
        "abs": [
            ("abs($0)", .int(-3), .value(.int(3))),
            ("abs($0)", .double(-2.5), .value(.double(2.5))),
            ("abs($0)", .int(.min), .error("arithmetic-overflow", "arithmetic overflow: abs(-9223372036854775808)")),
            ("abs($0)", .string("x"), .error("number-expected", "abs needs a number, got String \"x\"")),
        ],
        "min": [
            ("min($0, 2)", .int(5), .value(.int(2))),
            ("min($0, 2)", .double(1.5), .value(.double(1.5))),
            ("min($0, \"b\")", .string("a"), .value(.string("a"))),
            ("min($0, 2)", .string("a"), .error("uncomparable-values", "cannot compare String \"a\" with Int 2")),
        ],
        "max": [
            ("max($0, 2)", .int(5), .value(.int(5))),
            ("max($0, 2.5)", .int(1), .value(.double(2.5))),
            ("max($0, 2)", .bool(true), .error("uncomparable-values", "cannot compare Bool true with Int 2")),
        ],
        "String": [
            ("String($0)", .int(42), .value(.string("42"))),
            ("String($0)", .string("a"), .value(.string("a"))),
            ("String($0)", .array([.int(1)]), .value(.string("[1]"))),
        ],
        "Int": [
            ("Int($0)", .string("42"), .value(.int(42))),
            ("Int($0)", .double(-2.9), .value(.int(-2))),
            ("Int($0)", .bool(true), .value(.int(1))),
            ("Int($0)", .double(1e300), .error("invalid-conversion", "cannot convert 1e+300 to Int")),
            ("Int($0)", .array([]), .error("invalid-conversion", "cannot convert Array [] to Int")),
        ],
        "Double": [
            ("Double($0)", .int(3), .value(.double(3))),
            ("Double($0)", .string("2.5"), .value(.double(2.5))),
            ("Double($0)", .string("inf"), .error("invalid-conversion", "cannot convert \"inf\" to Double")),
        ],
        "round": [
            ("round($0)", .double(2.5), .value(.double(3))),
            ("round($0)", .int(7), .value(.int(7))),
            ("round($0)", .null, .error("number-expected", "round needs a number, got nil")),
        ],
        "floor": [
            ("floor($0)", .double(2.7), .value(.double(2))),
            ("floor($0)", .double(-2.5), .value(.double(-3))),
            ("floor($0)", .int(-7), .value(.int(-7))),
            ("floor($0)", .string("x"), .error("number-expected", "floor needs a number, got String \"x\"")),
        ],
    ]

    static func expression(_ text: String) throws -> Expr {
        var parser = Parser(source: SourceText(text, file: "t"))
        return try parser.parseExpression()
    }

    static func outcome(_ text: String, _ dollars: ClosureArguments) throws -> Outcome {
        let compiled = ExpressionCompiler(source: SourceText(text, file: "t")).compile(try expression(text))
        do {
            return .value(try compiled(dollars))
        } catch let error as PipelineError {
            return .error(error.id?.name ?? "none", error.message)
        }
    }

    @Test("every built-in function has evaluation cases, and every case names a function")
    func registry() {
        for function in BuiltinFunction.all {
            #expect(!(Self.cases[function.name] ?? []).isEmpty, "no evaluation cases for \(function.name)")
        }
        for name in Self.cases.keys {
            #expect(BuiltinFunction.named(name) != nil, "cases for \(name), which is no function")
        }
        #expect(Set(BuiltinFunction.names).count == BuiltinFunction.all.count, "two rows with one name")
    }

    @Test("each function gives what its cases say, values and run-time errors by id", arguments: BuiltinFunction.names)
    func evaluates(_ name: String) throws {
        for (call, dollar, expected) in Self.cases[name] ?? [] {
            let got = try Self.outcome(call, ClosureArguments(dollar))
            #expect(got.description == expected.description, "\(call) with $0 = \(dollar)")
        }
    }

    @Test(
        "every row is complete: its example has its arity and evaluates to its value, which its kind rule, infallibility rule and Swift spelling agree on",
        arguments: BuiltinFunction.names)
    func complete(_ name: String) throws {
        let function = try #require(BuiltinFunction.named(name))
        #expect(!function.summary.isEmpty)
        let example = try Self.expression(function.example.call)
        guard case .call(let called, let arguments) = example.kind else {
            Issue.record("\(function.example.call) is not a call")
            return
        }
        #expect(called == name)
        #expect(arguments.count == function.arity)
        let value = function.example.value
        #expect(try Self.outcome(function.example.call, .none).description == Outcome.value(value).description)

        let kinds = arguments.map { ExpressionKinds.infer($0, []).kind }
        let kind = function.kind.result(kinds)
        #expect(kind.kind == ValueKind.of(value), "kind rule of \(function.example.call)")
        #expect(function.kind.accepts?(kinds) ?? true)
        let certain = function.infallible(kinds).kind
        #expect(certain == nil || certain == ValueKind.of(value), "infallibility rule of \(function.example.call)")

        var call = BuiltinFunction.SwiftCall(
            name: name,
            arguments: arguments.map {
                var x = SwiftExpressions(names: [], kinds: []); return x.translate($0)
            })
        let swift = function.swift(&call)
        #expect(!swift.text.isEmpty)
        #expect(swift.kind == ValueKind.of(value))
        #expect(call.problems.isEmpty, "\(call.problems)")
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

    /// Every combination of `arity` kinds from `hostile`, with every combination of their values.
    static func combinations(_ arity: Int) -> [([ValueKind], [[Value]])] {
        var out: [([ValueKind], [[Value]])] = [([], [[]])]
        for _ in 0..<arity {
            out = out.flatMap { kinds, rows in
                hostile.map { kind, values in (kinds + [kind], rows.flatMap { row in values.map { row + [$0] } }) }
            }
        }
        return out
    }

    static func evaluate(_ function: BuiltinFunction, _ values: [Value]) throws(Message) -> Value {
        switch function.evaluate {
        case .one(let f): try f(values[0])
        case .two(let f): try f(values[0], values[1])
        }
    }

    @Test(
        "the rules never promise what evaluation breaks: proved infallible or 'cannot fail' means no error over hostile values; refused before the run means it fails at run time",
        arguments: BuiltinFunction.names)
    func rulesHoldOverHostileValues(_ name: String) throws {
        let function = try #require(BuiltinFunction.named(name))
        var refusedSomething = false
        for (kinds, rows) in Self.combinations(function.arity) {
            let certain = kinds.map { $0 == .null ? nil : $0 == .array(.int) ? .array(.any) : $0 }
            let proof = function.infallible(certain)
            let typed = function.kind.result(kinds)
            let refused = function.kind.accepts.map { accepts in kinds.contains(.null) ? false : !accepts(kinds) } ?? false
            refusedSomething = refusedSomething || refused
            for values in rows {
                var failure: Message?
                var result: Value?
                do throws(Message) { result = try Self.evaluate(function, values) } catch { failure = error }
                if proof.safe {
                    #expect(failure == nil, "\(name)\(values) was proved infallible: \(failure?.text ?? "")")
                    if let k = proof.kind, let result { #expect(ValueKind.of(result) == k || k == .array(.any), "\(name)\(values)") }
                }
                if !typed.mayFail {
                    #expect(failure == nil, "\(name)\(values): the kind rule says it cannot fail")
                    if let result, typed.kind != .any { #expect(ValueKind.of(result) == typed.kind, "\(name)\(values)") }
                }
                if refused { #expect(failure != nil, "\(name)\(values) is refused before the run but works") }
            }
        }
        if function.kind.accepts != nil { #expect(refusedSomething, "\(name) says what it refuses but refuses nothing") }
    }

    @Test("the parser suggests the table's functions for a misspelt name")
    func suggestions() {
        let help = diagnose("just 1.5 | map { $0 + flor }").first?.help
        #expect(help == "did you mean 'floor'?")
    }
}

/// `floor`, the function added as one row to show the table: what a user sees of it.
@Suite struct FloorFunctionTests {
    @Test("floor rounds a Double down and keeps an Int")
    func values() {
        #expect(
            run("from [2.7, -2.5, 3] | map { floor($0) }")
                == ["0 subscribed", "0 value 2.0", "0 value -3.0", "0 value 3", "0 finished"])
        #expect(run("just 7 | map { floor($0 / 2) }") == ["0 subscribed", "0 value 3", "0 finished"])
    }

    @Test(
        "floor of a kind that is no number is refused before the run, at the call, with its id",
        arguments: [
            ("just \"x\" | map { 1️⃣floor($0) }", "cannot apply 'floor' to String"),
            ("just [1.5] | map { 1️⃣floor($0) + 1 }", "cannot apply 'floor' to [Double]"),
            ("just true | filter { $0 && 1️⃣floor($0) > 1 }", "cannot apply 'floor' to Bool"),
        ])
    func refused(_ marked: String, _ message: String) {
        let (text, line, column) = unmark(marked)
        let diagnostics = diagnose(text)
        #expect(diagnostics.map(\.message) == [message])
        #expect(diagnostics.first?.id.description == "E326 impossible-operation")
        #expect(diagnostics.first?.location.line == line)
        #expect(diagnostics.first?.location.column == column)
    }

    @Test("floor of a value the checker cannot know fails the run at the call, with its id")
    func failsAtRunTime() throws {
        let (text, line, column) = unmark("from [1.5, \"x\"] | map { 1️⃣floor($0) }")
        let session = Session(runtime: Runtime(clock: .virtual))
        let (statements, diagnostics) = session.compile(text, file: "t")
        #expect(diagnostics.isEmpty)
        let statement = try #require(statements.last)
        let pipeline = try #require(session.execute(statement).pipeline)
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
        let error = try #require(failed.withLock { $0 })
        #expect(error.message == "floor needs a number, got String \"x\"")
        #expect(error.id?.description == "E621 number-expected")
        #expect(error.location?.line == line)
        #expect(error.location?.column == column)
    }

    @Test(
        "floor cannot fail over numbers, so its stage needs no throwing operator",
        arguments: [
            ("floor($0)", ValueKind.double, true),
            ("floor($0) > 2", .int, true),
            ("floor($0)", .string, false),
            ("floor($0)", .any, false),
            ("floor($0 * 2)", .int, false),  // the product can overflow
        ])
    func infallible(_ text: String, _ kind: ValueKind, _ expected: Bool) throws {
        #expect(Infallibility.cannotFail(try BuiltinFunctionTests.expression(text), dollars: [kind]) == expected)
    }

    @Test(
        "floor is written in Swift as rounded(.down), and is the value itself for an Int",
        arguments: [
            ("from [2.7, -2.5] | map { floor($0) }", "[2.7, -2.5].publisher.map { ($0).rounded(.down) }"),
            ("from [1, 2] | map { floor($0) + 1 }", "[1, 2].publisher.map { $0 + 1 }"),
            ("from [2.5] | map { floor($0 * 2.0) }", "[2.5].publisher.map { ($0 * 2.0).rounded(.down) }"),
        ])
    func swift(_ text: String, _ expected: String) {
        let code: String
        switch Session(runtime: Runtime(clock: .virtual)).swiftTranslation(of: text) {
        case .success(let swift): code = swift.joined
        case .failure(let d): code = "error: \(d.message)"
        }
        #expect(code == expected)
    }
}
