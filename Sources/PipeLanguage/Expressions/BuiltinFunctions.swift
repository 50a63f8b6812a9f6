/// The built-in functions of the closure language, one row each. Adding a function is adding a
/// row here (and its tests): the interpreter, the checker, the static pass, the infallibility
/// proof and the Swift translation all read this table.
extension BuiltinFunction {
    static let all: [BuiltinFunction] = [
        BuiltinFunction(
            name: "abs",
            summary: "the magnitude of a number; abs of Int.min overflows",
            example: ("abs(-3)", .int(3)),
            kind: KindRule { a in (a[0], true) },
            // abs(Int.min) overflows.
            infallible: { a in (a[0], a[0] == .double) },
            evaluate: .one { v throws(Message) in
                switch v {
                case .int(let i):
                    guard i != .min else { throw .arithmeticOverflow("abs(\(i))") }
                    return .int(Swift.abs(i))
                case .double(let d): return .double(Swift.abs(d))
                default: throw .numberExpected("abs", got: v)
                }
            },
            swift: { call in ("abs(\(call.texts))", call.first) }),

        BuiltinFunction(
            name: "min",
            summary: "the smaller of two numbers or two strings",
            example: ("min(2, 7)", .int(2)),
            kind: KindRule { a in
                let k = a[0].merged(a[1])
                return (k, !k.isNumber && k != .string)
            },
            infallible: { a in (a[0] == a[1] ? a[0] : nil, BuiltinRules.comparable(a[0], a[1])) },
            evaluate: .two { x, y throws(Message) in try BuiltinRules.compare(x, y) < 0 ? x : y },
            swift: { call in call.minMax() }),

        BuiltinFunction(
            name: "max",
            summary: "the larger of two numbers or two strings",
            example: ("max(2, 7)", .int(7)),
            kind: KindRule { a in
                let k = a[0].merged(a[1])
                return (k, !k.isNumber && k != .string)
            },
            infallible: { a in (a[0] == a[1] ? a[0] : nil, BuiltinRules.comparable(a[0], a[1])) },
            evaluate: .two { x, y throws(Message) in try BuiltinRules.compare(x, y) < 0 ? y : x },
            swift: { call in call.minMax() }),

        BuiltinFunction(
            name: "String",
            summary: "any value as text, as it prints",
            example: ("String(42)", .string("42")),
            kind: KindRule { _ in (.string, false) },
            infallible: { _ in (.string, true) },
            evaluate: .one { v throws(Message) in .string(v.plainText) },
            swift: { call in ("String(\(call.texts))", .string) }),

        BuiltinFunction(
            name: "Int",
            summary: "a number, a Bool or a numeric string as an Int (a Double is cut toward zero)",
            example: ("Int(-2.9)", .int(-2)),
            kind: KindRule { a in (.int, a[0] != .int) },
            infallible: { a in (.int, a[0] == .int || a[0] == .bool) },
            evaluate: .one { v throws(Message) in
                switch v {
                case .int: return v
                case .double(let d):
                    guard d.isFinite, d > -9.3e18, d < 9.3e18, let i = Int(exactly: d.rounded(.towardZero)) else {
                        throw .invalidConversion(v, to: "Int", showingType: false)
                    }
                    return .int(i)
                case .string(let s):
                    guard let i = Int(s) else { throw .invalidConversion(v, to: "Int", showingType: false) }
                    return .int(i)
                case .bool(let b): return .int(b ? 1 : 0)
                default: throw .invalidConversion(v, to: "Int", showingType: true)
                }
            },
            swift: { call in
                let only = call.arguments[0]
                switch only.kind {
                case .int: return (only.text, .int)
                case .bool: return ("(\(only.text) ? 1 : 0)", .int)
                case .string:
                    call.problems.append("Int(String) is an Optional in Swift; the language fails the pipeline")
                    return ("Int(\(only.text))", .int)
                default: return ("Int(\(only.text))", .int)
                }
            }),

        BuiltinFunction(
            name: "Double",
            summary: "a number or a numeric string as a Double",
            example: ("Double(3)", .double(3)),
            kind: KindRule { a in (.double, !a[0].isNumber) },
            infallible: { a in (.double, BuiltinRules.isNumber(a[0])) },
            evaluate: .one { v throws(Message) in
                switch v {
                case .int(let i): return .double(Double(i))
                case .double: return v
                case .string(let s):
                    guard let d = Double(s), d.isFinite else { throw .invalidConversion(v, to: "Double", showingType: false) }
                    return .double(d)
                default: throw .invalidConversion(v, to: "Double", showingType: true)
                }
            },
            swift: { call in
                if !call.first.isNumber { call.problems.append("Double(\(call.first.swiftName)) has no faithful Swift form") }
                return ("Double(\(call.texts))", .double)
            }),

        BuiltinFunction(
            name: "round",
            summary: "a number rounded to the nearest whole number, halves away from zero (an Int stays itself)",
            example: ("round(2.5)", .double(3)),
            kind: KindRule { a in (a[0], true) },
            infallible: { a in (a[0], BuiltinRules.isNumber(a[0])) },
            evaluate: .one { v throws(Message) in
                switch v {
                case .int: return v
                case .double(let d): return .double(d.rounded())
                default: throw .numberExpected("round", got: v)
                }
            },
            swift: { call in
                let only = call.arguments[0]
                return only.kind == .int ? (only.text, .int) : ("(\(only.text)).rounded()", only.kind)
            }),

        BuiltinFunction(
            name: "floor",
            summary: "a number rounded down to a whole number (an Int stays itself)",
            example: ("floor(-2.5)", .double(-3)),
            kind: KindRule(accepts: { a in a[0].isNumber }) { a in (a[0].isNumber ? a[0] : .any, !a[0].isNumber) },
            infallible: { a in (a[0], BuiltinRules.isNumber(a[0])) },
            evaluate: .one { v throws(Message) in
                switch v {
                case .int: return v
                case .double(let d): return .double(d.rounded(.down))
                default: throw .numberExpected("floor", got: v)
                }
            },
            swift: { call in
                let only = call.arguments[0]
                return only.kind == .int ? (only.text, .int) : ("(\(only.text)).rounded(.down)", only.kind)
            }),
    ]
}

extension BuiltinFunction.SwiftCall {
    /// `min(a, b)` / `max(a, b)`: Swift's own, for two values of one type.
    fileprivate mutating func minMax() -> (text: String, kind: ValueKind) {
        let (a, b) = (arguments[0].kind, arguments[1].kind)
        let kind = a.merged(b)
        if kind == .any { problems.append("\(name) of \(a.swiftName) and \(b.swiftName)") }
        return ("\(name)(\(texts))", kind)
    }
}
