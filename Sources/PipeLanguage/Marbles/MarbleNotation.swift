/// Marble notation, as the `marble` source reads it and `expect marbles` writes it: one
/// character per frame from the subscription.
///
/// `-` is a frame with no event; a letter is that one-letter string; a digit is that Int;
/// `'text'` is one value in one frame (an Int when it is all digits); `( … )` is a group of events
/// in one frame (the group as a whole takes one frame); `|` finishes; `#` fails; spaces are
/// ignored, for alignment.
///
/// ```swift
/// let frames = try MarbleNotation.parse("-a-(b'10')-|").get()
/// // [[], [.value("a")], [], [.value("b"), .value(10)], [], [.finished]]
/// MarbleNotation.render([(100_000_000, .value(.string("a")))], frame: 100_000_000)   // "-a"
/// ```
public enum MarbleNotation {
    /// One event in a frame.
    public enum Token: Sendable, Hashable {
        case value(Value)
        case finished
        case failed
    }

    /// Why a marble string is not valid: the UTF-8 offset of the culprit in the string, and what is wrong.
    public struct Problem: Error, Sendable, Hashable {
        public var offset: Int
        public var length: Int
        public var reason: String
    }

    /// The frames of `text`, each with its events (empty for `-`).
    public static func parse(_ text: String) -> Result<[[Token]], Problem> {
        let bytes = Array(text.utf8)
        var frames: [[Token]] = []
        var group: [Token]? = nil
        var groupStart = 0
        var ended: Int? = nil
        var i = 0
        func problem(_ at: Int, _ length: Int, _ reason: String) -> Result<[[Token]], Problem> {
            .failure(Problem(offset: at, length: max(1, length), reason: reason))
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: " ") {
                i += 1
                continue
            }
            if let end = ended, !(group != nil && c == UInt8(ascii: ")")) {
                return problem(i, 1, "nothing can follow '\(bytes[end] == UInt8(ascii: "|") ? "|" : "#")' in a marble string")
            }
            var token: Token?
            var width = 1
            switch c {
            case UInt8(ascii: "-"):
                if group != nil { return problem(i, 1, "a group holds events, not '-'") }
                frames.append([])
            case UInt8(ascii: "("):
                if group != nil { return problem(i, 1, "groups cannot be nested") }
                group = []
                groupStart = i
            case UInt8(ascii: ")"):
                guard let events = group else { return problem(i, 1, "')' without an opening '('") }
                if events.isEmpty { return problem(groupStart, i - groupStart + 1, "an empty group '()'; write '-' for a frame with no event") }
                frames.append(events)
                group = nil
            case UInt8(ascii: "|"): token = .finished
            case UInt8(ascii: "#"): token = .failed
            case UInt8(ascii: "'"):
                guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "'")) else {
                    return problem(i, bytes.count - i, "the quoted value is never closed with '")
                }
                let inner = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
                if inner.isEmpty { return problem(i, 2, "an empty quoted value ''") }
                token = .value(inner.allSatisfy(\.isASCIIDigitCharacter) ? (Int(inner).map(Value.int) ?? .string(inner)) : .string(inner))
                width = close - i + 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"): token = .value(.int(Int(c - UInt8(ascii: "0"))))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                token = .value(.string(String(UnicodeScalar(c))))
            default:
                // The whole character, however many UTF-8 bytes it takes.
                let character = String(decoding: bytes[i...].prefix(4), as: UTF8.self).first.map(String.init) ?? "?"
                return problem(i, character.utf8.count, "'\(character)' is not marble notation (use - a-z 0-9 'text' ( ) | #)")
            }
            if let token {
                if group != nil {
                    group!.append(token)
                } else {
                    frames.append([token])
                }
                if token == .finished || token == .failed { ended = i }
            }
            i += width
        }
        if group != nil { return problem(groupStart, 1, "the group '(' is never closed") }
        return .success(frames)
    }

    /// The glyph a value draws as: a one-character string or a digit as itself, anything else
    /// quoted (`'10'`, `'hello'`, `'[1, 2]'`), so every value can be compared.
    public static func glyph(_ value: Value) -> String {
        switch value {
        case .int(let n) where (0...9).contains(n): return String(n)
        case .int(let n): return "'\(n)'"
        case .string(let s) where s.count == 1 && s.first!.isLetter && s.first!.isASCII: return s
        case .string(let s): return "'\(s)'"
        default: return "'\(value.description)'"
        }
    }

    /// Writes a run's events as marble notation: frame `time / frame` from the subscription;
    /// several events in one frame form a group; nothing is written after the completion.
    public static func render(_ events: [(time: Int64, token: Token)], frame: Int64) -> String {
        guard frame > 0 else { return "" }
        var frames: [[Token]] = []
        for (time, token) in events {
            let index = Int(max(0, time) / frame)
            if index >= Limits.maxArrayCount { break }
            while frames.count <= index { frames.append([]) }
            frames[index].append(token)
            if token == .finished || token == .failed { break }
        }
        return frames.map { tokens in
            switch tokens.count {
            case 0: return "-"
            case 1: return text(tokens[0])
            default: return "(" + tokens.map(text).joined() + ")"
            }
        }.joined()
    }

    static func text(_ token: Token) -> String {
        switch token {
        case .value(let v): glyph(v)
        case .finished: "|"
        case .failed: "#"
        }
    }

    /// `expected` and `actual` aligned frame by frame, a caret under the first difference, and
    /// one sentence per frame whose events differ (`frame 2 (200ms): expected no event, got 2`):
    /// the diff `expect marbles` prints (`MarbleComparison`), for two strings.
    public static func diff(expected: String, actual: String, frame: Int64) -> [String] {
        func frames(_ text: String) -> MarbleComparison.Frames {
            MarbleComparison.Frames((try? parse(text).get()) ?? [])
        }
        return MarbleComparison.lines(frames(expected), frames(actual), frame: frame)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
