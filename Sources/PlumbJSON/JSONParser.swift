import Foundation

/// A strict JSON reader (RFC 8259) over UTF-8 bytes.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    /// Salvaging: a container whose text stops making sense ends there, with what it had, and
    /// `broken` is set so that every container around it ends too.
    var salvaging = false
    var broken = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipBlanks() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d else { return }
            index += 1
        }
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
        // Not `literal(…) ? value : nil`: with `JSON` a nil literal, that nil would be `.null`.
        case UInt8(ascii: "n"): return literal("null") ? JSON.null : Optional<JSON>.none
        case UInt8(ascii: "t"): return literal("true") ? JSON.bool(true) : Optional<JSON>.none
        case UInt8(ascii: "f"): return literal("false") ? JSON.bool(false) : Optional<JSON>.none
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
        guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8) else { return nil }
        // Digits only (and a leading minus): an integer, when it fits.
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: "-") }), let i = Int(text) { return .int(i) }
        guard let n = Double(text), n.isFinite else { return nil }
        return .double(n)
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
                // The run of plain bytes from here, at once (a document's text is mostly that).
                var end = index
                while end < bytes.count, bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
                out.append(byte)
                out.append(contentsOf: bytes[index..<end])
                index = end
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
