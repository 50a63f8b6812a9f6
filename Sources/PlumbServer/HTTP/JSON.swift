import Foundation

/// A JSON value: what the API reads and writes. Encoding escapes every character JSON needs
/// escaped and also `<`, `>` and `&` (as `\u003c` …), so no value can close a `<script>` or
/// start markup wherever a page puts it.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public static func int(_ value: Int) -> JSON { .number(Double(value)) }

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
        case .number(let n):
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
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSON.writeString(key, into: &out)
                out += ":"
                fields[key]!.write(into: &out)
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
    public static func decode(_ bytes: [UInt8]) -> JSON? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var parser = JSONParser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipBlanks()
        return parser.index == bytes.count ? value : nil
    }

    /// Reads as much of `bytes` as is JSON: the value with every array and object left open
    /// closed where the text stops making sense (a field whose value is cut is left out), and
    /// whether the text was one whole value. How a damaged state file keeps what it can.
    /// - Returns: the value (nil when not even its start can be read) and whether it was whole.
    static func decodeSalvaging(_ bytes: [UInt8]) -> (value: JSON?, complete: Bool) {
        var parser = JSONParser(bytes: bytes)
        parser.salvaging = true
        let value = parser.value(depth: 0)
        parser.skipBlanks()
        let complete = value != nil && !parser.broken && parser.index == bytes.count && String(validating: bytes, as: UTF8.self) != nil
        return (value, complete)
    }

    public subscript(key: String) -> JSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var int: Int? {
        if case .number(let n) = self, n.isFinite, abs(n) < 1e15 { return Int(n) }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// A strict JSON reader (RFC 8259) over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    /// Salvaging: a container whose text stops making sense ends there, with what it had, and
    /// `broken` is set so that every container around it ends too.
    var salvaging = false
    var broken = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipBlanks() {
        while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
    }

    private mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<(index + w.count)]) == w else { return false }
        index += w.count
        return true
    }

    mutating func value(depth: Int) -> JSON? {
        guard depth < 64 else { return nil }
        skipBlanks()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "["):
            index += 1
            var items: [JSON] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                guard let item = value(depth: depth + 1) else { return stop(.array(items)) }
                items.append(item)
                if broken { return .array(items) }
                skipBlanks()
                guard index < bytes.count else { return stop(.array(items)) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { return stop(.array(items)) }
                index += 1
                return .array(items)
            }
        case UInt8(ascii: "{"):
            index += 1
            var fields: [String: JSON] = [:]
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return stop(.object(fields)) }
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return stop(.object(fields)) }
                index += 1
                guard let item = value(depth: depth + 1) else { return stop(.object(fields)) }
                fields[key] = item
                if broken { return .object(fields) }
                skipBlanks()
                guard index < bytes.count else { return stop(.object(fields)) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { return stop(.object(fields)) }
                index += 1
                return .object(fields)
            }
        default: return number()
        }
    }

    /// Where a container's text stops making sense: nil, or when salvaging, what it had.
    private mutating func stop(_ partial: JSON) -> JSON? {
        guard salvaging else { return nil }
        broken = true
        return partial
    }

    private mutating func number() -> JSON? {
        let start = index
        while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
        // A number the text ends in may have been cut short.
        if salvaging, index == bytes.count { return nil }
        guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8), let n = Double(text), n.isFinite else { return nil }
        return .number(n)
    }

    private mutating func string() -> String? {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "u"):
                    guard var unit = hex4() else { return nil }
                    var scalar: Unicode.Scalar?
                    if (0xD800..<0xDC00).contains(unit) {
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalar = Unicode.Scalar(unit)
                    guard let scalar else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                out.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count, let text = String(bytes: bytes[index..<(index + 4)], encoding: .utf8), let v = UInt32(text, radix: 16) else {
            return nil
        }
        index += 4
        return v
    }
}
