/// Marble notation for async sequences, in the tokens of the `.pipe` language's `marble` source and
/// `expect marbles`: one step per frame from the start of the run.
///
/// `-` a step with no event; a letter or digit a value (its one-character string); `'text'` one
/// value of several characters; `( … )` several events in one step (the group takes one step);
/// `|` finished; `#` failed (``MarbleFailure``); spaces are ignored, for alignment.
///
/// ```swift
/// let events = try MarbleNotation.parse("-a-(b'10')-|")
/// // [(1, .value("a")), (3, .value("b")), (3, .value("10")), (5, .finished)]
/// ```
public enum MarbleNotation {
    /// One event of a diagram.
    public enum Event: Sendable, Hashable {
        /// An element, as its text.
        case value(String)
        /// The end of the sequence.
        case finished
        /// A failure (``MarbleFailure`` in an input).
        case failed
    }

    /// Why a diagram is not valid marble notation.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The diagram.
        public var diagram: String
        /// The character offset of the culprit.
        public var offset: Int
        /// What is wrong.
        public var reason: String

        /// The diagram, the offset and the reason.
        public var description: String { "'\(diagram)', character \(offset): \(reason)" }
    }

    /// The events of `diagram`, each with the step it happens at; nothing follows `|` or `#`.
    ///
    /// - Parameter diagram: The marble string.
    /// - Returns: The events in order.
    /// - Throws: ``Problem`` when the string is not marble notation.
    public static func parse(_ diagram: String) throws(Problem) -> [(step: Int, event: Event)] {
        let characters = Array(diagram)
        var events: [(step: Int, event: Event)] = []
        var step = 0
        var groupStart: Int?
        var ended = false
        var index = 0
        func problem(_ reason: String) -> Problem { Problem(diagram: diagram, offset: index, reason: reason) }
        while index < characters.count {
            let character = characters[index]
            defer { index += 1 }
            if character == " " { continue }
            if ended && !(groupStart != nil && character == ")") { throw problem("nothing can follow '|' or '#'") }
            var event: Event?
            switch character {
            case "-":
                if groupStart != nil { throw problem("a group holds events, not '-'") }
                step += 1
            case "(":
                if groupStart != nil { throw problem("groups cannot be nested") }
                groupStart = events.count
            case ")":
                guard let start = groupStart else { throw problem("')' without '('") }
                if start == events.count { throw problem("an empty group '()'; write '-' for a step with no event") }
                groupStart = nil
                step += 1
            case "|": event = .finished
            case "#": event = .failed
            case "'":
                guard let close = characters[(index + 1)...].firstIndex(of: "'") else { throw problem("the quoted value is never closed") }
                if close == index + 1 { throw problem("an empty quoted value ''") }
                event = .value(String(characters[(index + 1)..<close]))
                index = close
            default:
                guard character.isASCII && (character.isLetter || character.isNumber) else {
                    throw problem("'\(character)' is not marble notation (use - a-z 0-9 'text' ( ) | #)")
                }
                event = .value(String(character))
            }
            if let event {
                events.append((step, event))
                if groupStart == nil { step += 1 }
                if event == .finished || event == .failed { ended = true }
            }
        }
        if groupStart != nil { throw problem("the group '(' is never closed") }
        return events
    }

    /// The text of one frame's events: `-` for none, one event as itself, several as a group.
    static func frameText(_ events: [Event]) -> String {
        switch events.count {
        case 0: return "-"
        case 1: return text(events[0])
        default: return "(" + events.map(text).joined() + ")"
        }
    }

    /// How a value is drawn: one ASCII letter or digit as itself, anything else quoted.
    public static func glyph(_ value: String) -> String {
        if value.count == 1, let character = value.first, character.isASCII && (character.isLetter || character.isNumber) {
            return value
        }
        return "'\(value)'"
    }

    static func text(_ event: Event) -> String {
        switch event {
        case .value(let value): glyph(value)
        case .finished: "|"
        case .failed: "#"
        }
    }

    /// The frames of `events`, as text per step.
    static func frames(_ events: [(step: Int, event: Event)]) -> [String] {
        var grouped: [[Event]] = []
        for (step, event) in events {
            while grouped.count <= step { grouped.append([]) }
            grouped[step].append(event)
        }
        return grouped.map(frameText)
    }

    /// Draws `events` in canonical marble notation (`(a)` becomes `a`, spaces go).
    ///
    /// - Parameter events: Events with their steps, in order.
    /// - Returns: The diagram.
    public static func render(_ events: [(step: Int, event: Event)]) -> String {
        frames(events).joined()
    }
}

/// The error a `#` in an input diagram throws.
public struct MarbleFailure: Error, Sendable, Hashable {
    /// The failure of every input.
    public init() {}
}
