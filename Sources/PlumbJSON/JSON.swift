import Foundation

/// A JSON value: what the room's API and the language server's JSON-RPC messages read and write,
/// by key, never `Any`. Numbers keep whether they were written as integers (`int`) or not
/// (`double`); `1` and `1.0` are equal. Encoding sorts keys and escapes every character JSON needs
/// escaped and also `<`, `>`, `&`, U+2028 and U+2029 (as `\u003c` …), so no value can close a
/// `<script>` or start markup wherever a page puts it.
///
/// ```swift
/// let message = JSON.decode(Array(#"{"id":1,"method":"shutdown"}"#.utf8))
/// message?["method"]?.string   // "shutdown"
/// JSON.object(["a": "<b>"]).encoded   // {"a":"\u003cb\u003e"}
/// ```
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The value as text, keys sorted.
    public var encoded: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let n):
            if n.isFinite, n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) } else if n.isFinite { out += String(n) } else { out += "null" }
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out += "," }
                JSON.writeString(field.key, into: &out)
                out += ":"
                field.value.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses `bytes`; nil when they are not UTF-8 JSON (or nest deeper than 64).
    public static func decode(_ bytes: some Sequence<UInt8>) -> JSON? {
        let bytes = Array(bytes)
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var parser = JSONParser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipBlanks()
        // Not a ternary: with `JSON` a nil literal, `cond ? value : nil` would be `.null`.
        guard parser.index == bytes.count else { return nil }
        return value
    }

    /// Reads as much of `bytes` as is JSON: the value with every array and object left open
    /// closed where the text stops making sense (a field whose value is cut is left out), and
    /// whether the text was one whole value. How a damaged state file keeps what it can.
    /// - Returns: the value (nil when not even its start can be read) and whether it was whole.
    public static func decodeSalvaging(_ bytes: [UInt8]) -> (value: JSON?, complete: Bool) {
        var parser = JSONParser(bytes: bytes)
        parser.salvaging = true
        let value = parser.value(depth: 0)
        parser.skipBlanks()
        let complete = value != nil && !parser.broken && parser.index == bytes.count && String(validating: bytes, as: UTF8.self) != nil
        return (value, complete)
    }

    /// A member of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A whole number (written `3` or `3.0`) below 10^15 in magnitude.
    public var int: Int? {
        switch self {
        case .int(let i): i
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
        default: nil
        }
    }

    /// Any number, as a `Double`.
    public var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: [String: JSON]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// This object with `other`'s fields added (`other`'s win); other values stay as they are.
    public func merging(_ other: JSON) -> JSON {
        guard case .object(var fields) = self, case .object(let more) = other else { return self }
        for (key, value) in more { fields[key] = value }
        return .object(fields)
    }
}

extension JSON: Hashable {
    /// Numbers compare by value: `.int(1) == .double(1)`.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.int, .double), (.double, .int), (.double, .double): lhs.number == rhs.number
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int, .double:
            // Equal numbers hash alike whichever case holds them.
            if let number {
                hasher.combine(number)
            }
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    public init(nilLiteral: ()) { self = .null }
}
