/// `expect marbles`: a marble string compared with a run, value by value (not spelling by
/// spelling: `'a'` and `a` are one value; `'10'`, the Int 10, is not the String "10"), over any
/// number of frames (a 27-hour run at 100 ms frames, or `frame: 1ns`), with a message of bounded
/// size: long stretches of empty frames are elided, the text is capped.
///
/// ```swift
/// let c = MarbleComparison(expected: "-'a'-b-|", events: run, frame: 100_000_000)
/// c.holds      // true when the run's frames are the string's
/// c.actual     // the run as marbles, elided: "---- … 971,992 frames with no event … ----(0|)"
/// c.diff       // expected / actual / caret lines, then a sentence per differing frame
/// ```
public struct MarbleComparison: Sendable {
    public typealias Token = MarbleNotation.Token

    /// Frames with events, by index, and how many frames there are in all (sparse: a run of a
    /// billion empty frames costs nothing).
    struct Frames: Equatable {
        var count = 0
        var events: [Int: [Token]] = [:]

        init(_ frames: [[Token]]) {
            count = frames.count
            for (i, tokens) in frames.enumerated() where !tokens.isEmpty { events[i] = tokens }
        }

        /// A run's events in frames of `frame` ns from the subscription; nothing after the completion.
        init(events timeline: [(time: Int64, token: Token)], frame: Int64) {
            for (time, token) in timeline {
                let index = Int(Swift.max(0, time) / Swift.max(1, frame))
                events[index, default: []].append(token)
                count = Swift.max(count, index + 1)
                if token == .finished || token == .failed { break }
            }
        }

        subscript(i: Int) -> [Token] { events[i] ?? [] }
    }

    /// Whether the run is what the string says.
    public let holds: Bool
    /// The run as marble notation, long empty stretches elided.
    public let actual: String
    /// Aligned `expected`/`actual` lines, a caret under the first difference, and what differs.
    public let diff: [String]

    /// Largest message text kept, per line: beyond it, a note of how much was cut.
    static let maxLineCharacters = 2_000
    /// Empty frames kept on each side of an elided stretch.
    static let kept = 3

    public init(expected text: String, events: [(time: Int64, token: Token)], frame: Int64) {
        let expected = (try? MarbleNotation.parse(text).get()).map(Frames.init) ?? Frames([])
        let run = Frames(events: events, frame: frame)
        holds = expected == run
        actual = Self.capped(Self.text(run))
        diff = holds ? [] : Self.lines(expected, run, frame: frame)
    }

    /// A frame's text: `-`, a glyph, or a group.
    static func text(_ tokens: [Token]) -> String {
        switch tokens.count {
        case 0: return "-"
        case 1: return MarbleNotation.text(tokens[0])
        default: return "(" + tokens.map(MarbleNotation.text).joined() + ")"
        }
    }

    /// The frame indices worth showing: every frame with an event in either, a few empty frames
    /// around them; a gap between two shown frames is one elided stretch.
    static func shown(_ a: Frames, _ b: Frames) -> [Int] {
        let total = Swift.max(a.count, b.count)
        var wanted = Set<Int>()
        for i in Set(a.events.keys).union(b.events.keys) {
            for j in Swift.max(0, i - kept)...Swift.min(total - 1, i + kept) { wanted.insert(j) }
        }
        for j in 0..<Swift.min(total, kept) { wanted.insert(j) }
        for j in Swift.max(0, total - kept)..<total { wanted.insert(j) }
        return wanted.sorted()
    }

    /// `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    static func elision(_ n: Int) -> String { " … \(grouped(n)) frame\(n == 1 ? "" : "s") with no event … " }

    /// The run as text, with stretches of more than `2 × kept + 1` empty frames elided.
    static func text(_ run: Frames) -> String {
        var out = ""
        var previous = -1
        for i in shown(run, run) {
            if i > previous + 1 { out += elision(i - previous - 1) }
            out += text(run[i])
            previous = i
        }
        return out
    }

    static func capped(_ line: String) -> String {
        guard line.count > maxLineCharacters else { return line }
        return String(line.prefix(maxLineCharacters)) + " … (\(grouped(line.count - maxLineCharacters)) more characters)"
    }

    static func lines(_ e: Frames, _ a: Frames, frame: Int64) -> [String] {
        var top = "expected ", bottom = "actual   ", caret = "         "
        var sentences: [String] = []
        var firstDifference: Int?
        var previous = -1
        for i in shown(e, a) {
            if i > previous + 1 {
                // An elided stretch: both sides had no event there.
                let gap = elision(i - previous - 1)
                top += gap
                bottom += gap
                if firstDifference == nil { caret += String(repeating: " ", count: gap.count) }
            }
            previous = i
            let (x, y) = (i < e.count ? text(e[i]) : "", i < a.count ? text(a[i]) : "")
            let width = Swift.max(x.count, y.count, 1)
            top += x.padding(toLength: width, withPad: " ", startingAt: 0)
            bottom += y.padding(toLength: width, withPad: " ", startingAt: 0)
            let same = i < e.count && i < a.count ? e[i] == a[i] : x == y
            if same {
                if firstDifference == nil { caret += String(repeating: " ", count: width) }
                continue
            }
            if firstDifference == nil {
                firstDifference = i
                caret += "^"
            }
            let when = "frame \(grouped(i)) (\(Printer.duration(Int64(i) &* frame)))"
            if x == y {
                // Spelt alike, not the same values: say which kinds.
                let kinds =
                    zip(e[i], a[i]).first { $0 != $1 }.map { pair -> String in
                        "expected \(describe(pair.0)), got \(describe(pair.1))"
                    } ?? "expected \(x), got \(y)"
                sentences.append("\(when): \(kinds) (only the kind differs)")
            } else {
                sentences.append("\(when): expected \(describe(x)), got \(describe(y))")
            }
        }
        let shownSentences = 6
        if sentences.count > shownSentences {
            let more = sentences.count - shownSentences
            sentences = Array(sentences.prefix(shownSentences)) + ["… and \(more) more frame\(more == 1 ? "" : "s")"]
        }
        return [capped(top), capped(bottom), capped(caret)] + sentences
    }

    static func describe(_ token: Token) -> String {
        switch token {
        case .value(let v): v.typed
        case .finished: "finished"
        case .failed: "a failure"
        }
    }

    static func describe(_ frameText: String) -> String {
        switch frameText {
        case "": "nothing (the diagram had ended)"
        case "-": "no event"
        case "|": "finished"
        case "#": "a failure"
        default: frameText
        }
    }
}
