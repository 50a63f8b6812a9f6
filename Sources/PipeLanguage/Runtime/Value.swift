/// A dynamic value flowing through a `.pipe` pipeline.
///
/// `description` prints it as the language writes it: `1`, `2.5`, `"hi"`, `true`, `[1, 2]`, `nil`.
///
/// ```swift
/// Value.array([.int(1), .string("a")]).description   // [1, "a"]
/// ```
public enum Value: Sendable, Hashable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case array([Value])
    case null

    public var description: String {
        switch self {
        case .int(let i): return String(i)
        case .double(let d): return Value.format(d)
        case .string(let s): return Value.quote(s)
        case .bool(let b): return b ? "true" : "false"
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .null: return "nil"
        }
    }

    /// The text `String(v)` and interpolation produce: like `description`, but strings unquoted.
    public var plainText: String {
        if case .string(let s) = self { return s }
        return description
    }

    /// The kind's name as an error message shows it (`Int`, `String`, …).
    /// The value with its kind, as messages name it: `Int 1`, `String "a"`, and `nil` alone.
    var typed: String { self == .null ? "nil" : "\(typeName) \(self)" }

    /// `Int`, `Double`, `String`, `Bool`, `Array`, or `nil`.
    public var typeName: String {
        switch self {
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .bool: "Bool"
        case .array: "Array"
        case .null: "nil"
        }
    }

    static func format(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        // 1.0 prints as 1.0 (not 1) so a double stays recognisable.
        if d == d.rounded(), abs(d) < 1e15 { return "\(Int(d)).0" }
        return "\(d)"
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

// Equality treats 1 and 1.0 as equal numbers, as the language's `==` does; hashing agrees.
extension Value {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b && Double(exactly: a) != nil
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .int(let i): hasher.combine(0); hasher.combine(Double(i))
        case .double(let d): hasher.combine(0); hasher.combine(d)
        case .string(let s): hasher.combine(1); hasher.combine(s)
        case .bool(let b): hasher.combine(2); hasher.combine(b)
        case .array(let a): hasher.combine(3); hasher.combine(a)
        case .null: hasher.combine(4)
        }
    }
}
